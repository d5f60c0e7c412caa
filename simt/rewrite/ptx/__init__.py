"""Traduction du PTX en ligne pour l'émulateur simt.

Chaque instruction ``asm [volatile] ("…" : sorties : entrées : clobbers);`` dont toutes les
instructions PTX sont connues devient du C++ ordinaire sur le même nombre de lignes : chaque
instruction PTX y est un appel à une fonction de ``::simt::ptx`` (simt/include/simt/ptx/).

- ``parse.py`` : analyse de l'instruction asm (chaînes, contraintes, opérandes) et du PTX ;
- ``translate.py`` : génération du C++ (registres, portées, étiquettes, opérandes) ;
- ``registry.py`` : le registre des instructions, que remplissent les familles ;
- ``families.py`` : la liste des familles, une ligne d'import chacune (``base.py``,
  ``ampere.py``…).
"""

from .translate import asm_edits  # noqa: F401
