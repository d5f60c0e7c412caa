"""Aucun programme construit ne dépend de libcuda à l'édition des liens.

Sans pilote NVIDIA, libcuda.so.1 n'existe pas : un programme qui la déclare dans ses
dépendances (entrée NEEDED de sa section dynamique) ne démarre pas, au lieu de rapporter
« pas de GPU » et de sauter ses tests. Le pilote se charge à l'exécution, par le runtime
statique ; un lien direct vient en général d'une cible importée qui tire l'ébauche
stubs/libcuda.so (CUDA::cuda_driver)."""
import argparse
import subprocess
import sys
from pathlib import Path

ELF_MAGIC = b"\x7fELF"


def is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(4) == ELF_MAGIC
    except OSError:
        return False


def needed_libraries(path: Path) -> list[str]:
    """Les entrées NEEDED de la section dynamique, lues par readelf."""
    listing = subprocess.run(["readelf", "-d", "-W", str(path)], capture_output=True,
                             text=True, check=False).stdout
    return [line.split("[", 1)[1].rstrip("]") for line in listing.splitlines()
            if "(NEEDED)" in line and "[" in line]


def linked_programs(build: Path) -> list[Path]:
    """Exécutables et bibliothèques partagées de la construction (objets exclus)."""
    found = []
    for path in sorted(build.rglob("*")):
        if "CMakeFiles" in path.parts or not path.is_file() or path.suffix in (".o", ".a"):
            continue
        if (path.stat().st_mode & 0o111 or path.suffix == ".so") and is_elf(path):
            found.append(path)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--construction", type=Path, required=True, help="dossier de construction")
    args = parser.parse_args(argv)
    programs = linked_programs(args.construction)
    if not programs:
        print(f"sans-libcuda : aucun programme dans {args.construction} : construisez d'abord",
              file=sys.stderr)
        return 2
    faults = [(path, name) for path in programs for name in needed_libraries(path)
              if name.startswith("libcuda.so")]
    for path, name in faults:
        print(f"{path.relative_to(args.construction)} dépend de {name} : il ne démarrera pas sans "
              "pilote NVIDIA. Retirez CUDA::cuda_driver (ou une cible qui le tire, comme "
              "CUDA::nvrtc : utilisez noyaux_nvrtc) de ses bibliothèques.", file=sys.stderr)
    if faults:
        return 1
    print(f"sans-libcuda : {len(programs)} programmes, aucun ne dépend de libcuda.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
