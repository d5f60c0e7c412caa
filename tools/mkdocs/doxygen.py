"""Référence API Doxygen : pages HTML ajoutées au site sous api/, et table des pages
par fichier source, lue dans le fichier d'étiquettes (tag file) de Doxygen."""
from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path


# Fichiers de travail de Doxygen, inutiles au lecteur.
SKIPPED_SUFFIXES = {".map", ".md5"}


def file_pages(tag_file: Path, root: Path) -> dict[str, str]:
    """Page HTML de chaque fichier documenté, indexée par chemin relatif à @p root."""
    pages = {}
    for compound in ElementTree.parse(tag_file).getroot().iter("compound"):
        if compound.get("kind") != "file":
            continue
        name = compound.findtext("name", "")
        path = compound.findtext("path", "")
        filename = compound.findtext("filename", "")
        if not filename.endswith(".html"):
            filename += ".html"
        source = Path(path) / name
        if source.is_absolute() and source.is_relative_to(root):
            source = source.relative_to(root)
        pages[source.as_posix()] = filename
    return pages
