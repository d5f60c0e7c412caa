#!/usr/bin/env python3
"""Vérifie que tout ce que la construction a utilisé sous /usr vient d'un paquet Debian
installé par ci/setup ou livré avec l'image de la machine.

Ce que la construction a utilisé, d'après ses propres traces :
- les en-têtes, lus dans les fichiers de dépendances des compilateurs (*.o.d, compiler_depend.make) ;
- les bibliothèques liées, lues dans les lignes d'édition des liens (link.txt) ;
- les programmes et fichiers que CMake a trouvés (CMakeCache.txt : compilateurs, doxygen,
  hunspell, chromium, KaTeX…).

Chaque fichier est rattaché à son paquet comme le fait `dpkg -S`, en lisant les listes de
fichiers de dpkg (/var/lib/dpkg/info/*.list). Un paquet est admis s'il est dans
ci/paquets-debian.txt, dans ci/paquets-image.txt, ou s'il en est une dépendance (Depends,
Pre-Depends, de proche en proche). Le toolkit CUDA, prérequis de la machine, n'est pas un
paquet Debian : ses fichiers sont admis tels quels.
"""
from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

DPKG_INFO = Path("/var/lib/dpkg/info")
# Dossiers où l'éditeur de liens cherche une bibliothèque nommée par « -lnom ».
DEFAULT_LIBRARY_DIRS = [Path("/usr/lib/x86_64-linux-gnu"), Path("/lib/x86_64-linux-gnu"),
                        Path("/usr/lib"), Path("/lib")]


class SetupError(Exception):
    """Entrée absente ou illisible : le test ne peut pas conclure."""


def read_package_list(path: Path) -> set[str]:
    """Noms de paquets d'une liste du dépôt : « # » commente, plusieurs noms par ligne permis."""
    if not path.is_file():
        raise SetupError(f"liste de paquets absente : {path}")
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        names.update(line.split("#", 1)[0].split())
    if not names:
        raise SetupError(f"liste de paquets vide : {path}")
    return names


# --- Ce que la construction a utilisé ------------------------------------------------------

def depfile_paths(text: str) -> set[Path]:
    """Chemins absolus d'un fichier de dépendances au format make."""
    paths = set()
    for token in text.replace("\\\n", " ").split():
        token = token.rstrip(":")
        if token.startswith("/"):
            paths.add(Path(token))
    return paths


def link_paths(command: str, cuda_root: Path | None) -> tuple[set[Path], list[str]]:
    """Bibliothèques d'une ligne d'édition des liens : chemins absolus et « -lnom » résolus.

    Renvoie aussi les « -lnom » introuvables (signalés, jamais ignorés en silence)."""
    paths, unresolved = set(), []
    search = []
    words = shlex.split(command)
    for word in words:
        if word.startswith("-L") and len(word) > 2:
            search.append(Path(word[2:]))
    if cuda_root is not None:
        search += [cuda_root / "lib64", cuda_root / "lib64" / "stubs"]
    search += DEFAULT_LIBRARY_DIRS
    for word in words[1:]:
        if word.startswith("/") and re.search(r"\.(a|so)(\.[0-9.]+)?$", word):
            paths.add(Path(word))
        elif word.startswith("-l") and len(word) > 2:
            name = word[2:]
            found = next((folder / f"lib{name}{suffix}" for folder in search
                          for suffix in (".so", ".a")
                          if (folder / f"lib{name}{suffix}").exists()), None)
            if found is None:
                unresolved.append(word)
            else:
                paths.add(found)
    return paths, unresolved


CACHE_ENTRY = re.compile(r"^([A-Za-z0-9_.+-]+):(FILEPATH|PATH)=(/.*)$")


def cache_paths(cache: Path) -> dict[Path, str]:
    """Chemins absolus trouvés par CMake (entrées FILEPATH et PATH), avec leur variable."""
    found = {}
    for line in cache.read_text(encoding="utf-8", errors="replace").splitlines():
        match = CACHE_ENTRY.match(line)
        # CMAKE_INSTALL_* : des destinations, pas des fichiers que la construction lit.
        if match and "NOTFOUND" not in match[3] and not match[1].startswith("CMAKE_INSTALL_"):
            for value in match[3].split(";"):
                if value.startswith("/"):
                    found[Path(value)] = match[1]
    return found


@dataclass
class Usage:
    """Fichiers utilisés par la construction, chacun avec une trace de qui l'a utilisé."""
    files: dict[Path, str] = field(default_factory=dict)
    unresolved_libraries: list[str] = field(default_factory=list)

    def add(self, path: Path, origin: str) -> None:
        self.files.setdefault(path, origin)


def build_usage(build: Path, cuda_root: Path | None) -> Usage:
    cache = build / "CMakeCache.txt"
    if not cache.is_file():
        raise SetupError(f"{cache} absent : configurez d'abord la construction (cmake --preset ci)")
    usage = Usage()
    for path, variable in cache_paths(cache).items():
        usage.add(path, f"CMakeCache.txt ({variable})")
    depfiles = [*build.rglob("*.o.d"), *build.rglob("compiler_depend.make")]
    links = list(build.rglob("link.txt"))
    if not depfiles or not links:
        raise SetupError(f"aucune trace de compilation dans {build} : construisez d'abord "
                         "(cmake --build --preset ci)")
    for depfile in depfiles:
        origin = str(depfile.relative_to(build))
        for path in depfile_paths(depfile.read_text(encoding="utf-8", errors="replace")):
            usage.add(path, origin)
    for link in links:
        origin = str(link.relative_to(build))
        paths, unresolved = link_paths(link.read_text(encoding="utf-8"), cuda_root)
        for path in paths:
            usage.add(path, origin)
        usage.unresolved_libraries += [f"{word} ({origin})" for word in unresolved]
    return usage


# --- Paquets Debian -------------------------------------------------------------------------

def file_owners(info: Path) -> dict[str, set[str]]:
    """Chemin → paquets qui le déclarent, d'après les listes de fichiers de dpkg."""
    owners: dict[str, set[str]] = defaultdict(set)
    for listing in info.glob("*.list"):
        package = listing.stem.split(":")[0]
        for line in listing.read_text(encoding="utf-8", errors="replace").splitlines():
            owners[line].add(package)
    return owners


def installed_dependencies() -> dict[str, set[str]]:
    """Paquet installé → paquets dont il dépend (Depends et Pre-Depends, alternatives et
    paquets virtuels résolus vers ce qui est installé)."""
    listing = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package}\t${db:Status-Abbrev}\t${Provides}\t${Depends}, ${Pre-Depends}\n"],
        capture_output=True, text=True, check=True).stdout
    rows = [line.split("\t") for line in listing.splitlines()]
    installed = {row[0] for row in rows if row[1].startswith("ii")}
    providers: dict[str, set[str]] = defaultdict(set)
    for package, status, provides, _ in rows:
        if status.startswith("ii"):
            providers[package].add(package)
            for virtual in filter(None, (item.split("(")[0].strip().split(":")[0]
                                         for item in provides.split(","))):
                providers[virtual].add(package)
    depends = {}
    for package, status, _, relations in rows:
        if package not in installed:
            continue
        targets = set()
        for group in relations.split(","):
            for alternative in group.split("|"):
                name = alternative.split("(")[0].strip().split(":")[0]
                targets |= providers.get(name, set())
        depends[package] = targets
    return depends


def closure(roots: set[str], depends: dict[str, set[str]]) -> set[str]:
    allowed, pending = set(), list(roots)
    while pending:
        package = pending.pop()
        if package not in allowed:
            allowed.add(package)
            pending.extend(depends.get(package, ()))
    return allowed


def candidates(path: Path) -> list[str]:
    """Noms sous lesquels dpkg peut connaître un fichier : tel quel, lien résolu, et les deux
    moitiés de l'arborescence fusionnée de Debian (/lib et /usr/lib…)."""
    names = []
    for variant in (path, path.resolve()):
        text = str(variant)
        names.append(text)
        for short, long in (("/lib/", "/usr/lib/"), ("/bin/", "/usr/bin/"), ("/sbin/", "/usr/sbin/")):
            if text.startswith(long):
                names.append(short + text[len(long):])
            elif text.startswith(short):
                names.append(long + text[len(short):])
    return names


@dataclass
class Verdict:
    missing: dict[str, list[tuple[Path, str]]] = field(default_factory=dict)
    orphans: list[tuple[Path, str]] = field(default_factory=list)
    checked: int = 0
    packages: set[str] = field(default_factory=set)


def in_toolkit(path: Path, cuda_real: Path | None) -> bool:
    """Vrai pour un fichier du toolkit CUDA de l'image (prérequis déclaré, hors dpkg) : sous sa
    racine, lien vers elle, ou petit lanceur qui l'exécute (l'image a /usr/local/bin/nvcc, un
    script « exec /usr/local/cuda-13.0/bin/nvcc "$@" »)."""
    if cuda_real is None:
        return False
    real = path.resolve()
    if real == cuda_real or cuda_real in real.parents:
        return True
    try:
        with real.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    if not head.startswith(b"#!") or len(head) == 4096:
        return False
    text = head.decode("utf-8", errors="replace")
    return any(Path(word).resolve() == cuda_real or cuda_real in Path(word).resolve().parents
               for word in text.split() if word.startswith("/"))


def judge(usage: Usage, owners: dict[str, set[str]], allowed: set[str],
          cuda_root: Path | None) -> Verdict:
    verdict = Verdict()
    cuda_real = cuda_root.resolve() if cuda_root else None
    for path, origin in sorted(usage.files.items()):
        if not (str(path).startswith(("/usr/", "/lib/", "/bin/", "/sbin/", "/opt/"))):
            continue  # le dépôt, sa construction, .venv : hors du système
        if in_toolkit(path, cuda_real):
            continue  # toolkit CUDA de l'image, prérequis déclaré
        verdict.checked += 1
        found = set()
        for name in candidates(path):
            found = owners.get(name, set())
            if found:
                break
        if not found:
            verdict.orphans.append((path, origin))
            continue
        verdict.packages |= found
        # Un dossier appartient à beaucoup de paquets : un seul admis suffit.
        if not found & allowed:
            verdict.missing.setdefault(min(found), []).append((path, origin))
    return verdict


def covering_roots(package: str, allowed: set[str], depends: dict[str, set[str]]) -> list[str]:
    """Paquets installés hors liste dont personne d'autre hors liste ne dépend et qui tirent
    @p package : souvent le paquet « -dev » qu'on avait installé à la main (libboost-context-dev
    pour les en-têtes de libboost1.74-dev)."""
    outside = set(depends) - allowed
    pulled = {dependency for name in outside for dependency in depends[name]}
    roots = [name for name in sorted(outside - pulled) if package in closure({name}, depends)]
    return [name for name in roots if name != package]


def report(verdict: Verdict, usage: Usage, setup_list: Path, allowed: set[str],
           depends: dict[str, set[str]]) -> list[str]:
    lines = []
    for package, uses in sorted(verdict.missing.items()):
        path, origin = uses[0]
        more = f" (et {len(uses) - 1} autre{'s' if len(uses) > 2 else ''})" if len(uses) > 1 else ""
        roots = covering_roots(package, allowed, depends)
        hint = (f" ; ou bien « {' » ou « '.join(roots)} », installé ici, qui le tire avec ses "
                "dépendances" if roots else "")
        lines.append(f"{path} appartient au paquet Debian {package}, que ci/setup n'installe pas "
                     f"et que l'image de la machine n'a pas ; utilisé par {origin}{more}.\n"
                     f"    → ajoutez la ligne « {package} » à {setup_list} (liste que lit "
                     f"ci/setup){hint}")
    for path, origin in verdict.orphans:
        lines.append(f"{path} n'appartient à aucun paquet Debian (installé à la main ?) ; "
                     f"utilisé par {origin}")
    for word in usage.unresolved_libraries:
        lines.append(f"bibliothèque introuvable pour {word}")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--construction", type=Path, required=True,
                        help="dossier de construction CMake (build/)")
    parser.add_argument("--paquets", type=Path, required=True,
                        help="paquets installés par ci/setup (ci/paquets-debian.txt)")
    parser.add_argument("--image", type=Path, required=True,
                        help="paquets de l'image de la machine (ci/paquets-image.txt)")
    parser.add_argument("--cuda", type=Path, help="racine du toolkit CUDA (hors paquets Debian)")
    parser.add_argument("--dpkg-info", type=Path, default=DPKG_INFO, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        setup_packages = read_package_list(args.paquets)
        depends = installed_dependencies()
        allowed = closure(setup_packages | read_package_list(args.image), depends)
        usage = build_usage(args.construction, args.cuda)
        verdict = judge(usage, file_owners(args.dpkg_info), allowed, args.cuda)
    except SetupError as error:
        print(f"paquets : {error}", file=sys.stderr)
        return 2
    problems = report(verdict, usage, args.paquets, allowed, depends)
    if problems:
        print(f"paquets : {len(problems)} problème(s) ; une machine neuve ne pourrait pas "
              "construire Noyaux avec ./ci/setup :", *problems, sep="\n  ", file=sys.stderr)
        return 1
    print(f"paquets : {verdict.checked} fichiers du système utilisés par la construction, "
          f"{len(verdict.packages)} paquets Debian, tous installés par ci/setup ou livrés avec l'image.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
