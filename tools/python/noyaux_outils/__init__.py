"""Modules Python partagés par le site (tools/mkdocs) et les tests (tests/) de Noyaux.

Le dossier tools/python est la racine d'importation : les points d'entrée (crochets MkDocs,
scripts de vérification, tests) l'ajoutent à sys.path ; les modules s'importent ensuite
normalement (from noyaux_outils.code_machine import read_kernels)."""
