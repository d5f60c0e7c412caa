#!/usr/bin/env python3
"""Pilote commun de simt-run et simt-nvcc : compiler un programme CUDA pour l'émulateur.

Il lit les options usuelles de nvcc, réécrit chaque source et chaque en-tête local qu'elle
inclut (simt/rewrite/simt_rewrite.py), compile les copies réécrites par g++ contre le
prélude de simt, puis lie les objets à libsimt. Les copies réécrites reproduisent
l'arborescence d'origine (chemins absolus) sous un dossier temporaire : un
``#include "voisin.cuh"`` y trouve la copie réécrite du voisin, et chaque copie commence
par ``#line 1 "original"``, si bien que les erreurs citent les fichiers et les lignes
d'origine.

    simt-run  [OPTIONS] SOURCES... [--] [ARGUMENTS DU PROGRAMME...]
    simt-nvcc [OPTIONS] [-c] SOURCES... OBJETS... [-o SORTIE]
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "simt" / "rewrite"))
import simt_rewrite  # noqa: E402

SOURCE_SUFFIXES = {".cu", ".cpp", ".cc", ".cxx", ".c++", ".C"}
OBJECT_SUFFIXES = {".o", ".a", ".so"}
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)
# Bibliothèques que nvcc lie de lui-même ou que l'émulateur remplace.
REPLACED_LIBRARIES = {"cudart", "cudart_static", "cudadevrt"}

# Options de nvcc sans effet sur le processeur : la cible GPU, le débogage du code du
# périphérique, les réglages propres à nvcc. Acceptées pour qu'un Makefile écrit pour nvcc
# passe tel quel. Le nombre indique combien d'arguments les suivent (forme séparée).
IGNORED = {
    "-lineinfo": 0, "--generate-line-info": 0, "-G": 0, "--device-debug": 0,
    "--extended-lambda": 0, "-extended-lambda": 0, "--expt-extended-lambda": 0,
    "-expt-extended-lambda": 0, "--expt-relaxed-constexpr": 0, "-expt-relaxed-constexpr": 0,
    "-use_fast_math": 0, "--use_fast_math": 0, "-m64": 0, "-Wno-deprecated-gpu-targets": 0,
    "-Wno-deprecated-declarations": 0, "-rdc=true": 0, "-rdc=false": 0,
    "--relocatable-device-code=true": 0, "--relocatable-device-code=false": 0,
    "-arch": 1, "--gpu-architecture": 1, "-code": 1, "--gpu-code": 1, "-gencode": 1,
    "--generate-code": 1, "-maxrregcount": 1, "--maxrregcount": 1, "-t": 1, "--threads": 1,
    "-ccbin": 1, "--compiler-bindir": 1,
}
# Fichier de dépendances écrit pendant la compilation (-c), pour make : -MD y met tous les
# en-têtes, -MMD ceux qui ne sont pas du système.
DEPENDENCY_FLAGS = {"-MD": "-MD", "--generate-dependencies-with-compile": "-MD",
                    "-MMD": "-MMD", "--generate-nonsystem-dependencies-with-compile": "-MMD"}
# Les mêmes sous la forme --option=valeur (ou -arch=sm_80).
IGNORED_WITH_VALUE = ("-arch=", "--gpu-architecture=", "-code=", "--gpu-code=", "-gencode=",
                      "--generate-code=", "-maxrregcount=", "--maxrregcount=", "-t=",
                      "--threads=", "-ccbin=", "--compiler-bindir=")


class UsageError(Exception):
    """Ligne de commande refusée : le message est affiché tel quel."""


@dataclass
class Options:
    sources: list[Path] = field(default_factory=list)
    objects: list[Path] = field(default_factory=list)
    includes: list[Path] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)  # -DNOM, -DNOM=V, -UNOM
    host_flags: list[str] = field(default_factory=list)  # -Xcompiler, -g, -w
    link_flags: list[str] = field(default_factory=list)  # -l, -L, -Xlinker
    std: str = "c++20"
    optimization: str = "-O2"  # l'émulation est lente sans optimisation
    output: Path | None = None
    compile_only: bool = False
    all_cuda: bool = False  # -x cu : les .cpp aussi sont du CUDA
    program_arguments: list[str] = field(default_factory=list)
    dependencies: str | None = None  # -MD ou -MMD : fichier de dépendances pour make
    dependency_file: Path | None = None  # -MF
    dependency_targets: list[str] = field(default_factory=list)  # -MT (plusieurs permis)
    phony_headers: bool = False  # -MP


def _take_value(args: list[str], i: int, option: str) -> tuple[str, int]:
    """Valeur d'une option sous la forme « -I dossier » ou « -Idossier »."""
    if args[i] != option:
        value = args[i][len(option):]
        return (value[1:] if value.startswith("=") else value), i + 1
    if i + 1 >= len(args):
        raise UsageError(f"l'option {option} attend une valeur")
    return args[i + 1], i + 2


def parse(args: list[str], tool: str) -> Options:
    """Lit la ligne de commande de simt-run (tool == "run") ou de simt-nvcc."""
    options = Options()
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            options.program_arguments = args[i + 1:]
            if tool != "run":
                raise UsageError("« -- » ne sert qu'à simt-run (arguments du programme)")
            break
        if not arg.startswith("-"):
            path = Path(arg)
            if path.suffix in SOURCE_SUFFIXES or path.suffix in OBJECT_SUFFIXES:
                if not path.is_file():
                    raise UsageError(f"fichier introuvable : {arg}")
                (options.sources if path.suffix in SOURCE_SUFFIXES else options.objects).append(path)
                i += 1
                continue
            if tool == "run" and (options.sources or options.objects):
                options.program_arguments = args[i:]  # le programme prend la suite
                break
            raise UsageError(f"« {arg} » n'est ni une source CUDA ou C++ "
                             f"({', '.join(sorted(SOURCE_SUFFIXES))}) ni un objet (.o, .a)")
        if arg in IGNORED:
            i += 1 + IGNORED[arg]
            if i > len(args):
                raise UsageError(f"l'option {arg} attend une valeur")
        elif arg.startswith(IGNORED_WITH_VALUE):
            i += 1
        elif arg.startswith("-I") or arg.startswith("--include-path"):
            value, i = _take_value(args, i, "-I" if arg.startswith("-I") else "--include-path")
            options.includes.append(Path(value).absolute())
        elif arg.startswith("-isystem"):
            value, i = _take_value(args, i, "-isystem")
            options.host_flags += ["-isystem", str(Path(value).absolute())]
        elif arg.startswith("-D") or arg.startswith("--define-macro"):
            value, i = _take_value(args, i, "-D" if arg.startswith("-D") else "--define-macro")
            options.defines.append("-D" + value)
        elif arg.startswith("-U"):
            value, i = _take_value(args, i, "-U")
            options.defines.append("-U" + value)
        elif arg.startswith("-std") or arg.startswith("--std"):
            value, i = _take_value(args, i, "--std" if arg.startswith("--std") else "-std")
            if not re.fullmatch(r"(?:c|gnu)\+\+(?:11|14|17|20|2a|23|2b)", value):
                raise UsageError(f"norme du langage inconnue : {value} (attendu : c++17, c++20…)")
            # Le prélude de simt demande C++20 : une norme plus ancienne est relevée.
            if value[-2:] in ("23", "2b"):
                options.std = value
        elif re.fullmatch(r"-O[0-3s]?|--optimize=?[0-3]?", arg):
            options.optimization = arg if arg.startswith("-O") else "-O" + arg[-1]
            i += 1
        elif arg == "--optimize":
            value, i = _take_value(args, i, "--optimize")
            options.optimization = "-O" + value
        elif arg in ("-g", "--debug", "-w"):
            options.host_flags.append("-g" if arg != "-w" else "-w")
            i += 1
        elif arg.startswith(("-Xcompiler", "--compiler-options")):
            value, i = _take_value(args, i, "-Xcompiler" if arg.startswith("-Xcompiler") else "--compiler-options")
            options.host_flags += [flag for flag in value.split(",") if flag]
        elif arg.startswith(("-Xlinker", "--linker-options")):
            value, i = _take_value(args, i, "-Xlinker" if arg.startswith("-Xlinker") else "--linker-options")
            options.link_flags += ["-Wl," + value]
        elif arg.startswith("-l"):
            value, i = _take_value(args, i, "-l")
            if value not in REPLACED_LIBRARIES:
                options.link_flags.append("-l" + value)
        elif arg.startswith("-L"):
            value, i = _take_value(args, i, "-L")
            options.link_flags.append("-L" + value)
        elif arg in ("-o", "--output-file") or arg.startswith("-o"):
            value, i = _take_value(args, i, "-o" if arg.startswith("-o") else "--output-file")
            options.output = Path(value)
        elif arg in ("-c", "--compile", "-dc", "--device-c") and tool != "run":
            options.compile_only = True
            i += 1
        elif arg in DEPENDENCY_FLAGS:
            options.dependencies = DEPENDENCY_FLAGS[arg]
            i += 1
        elif arg in ("-MP", "--generate-dependency-targets"):
            options.phony_headers = True
            i += 1
        elif arg.startswith(("-MF", "--dependency-output")):
            value, i = _take_value(args, i, "-MF" if arg.startswith("-MF") else "--dependency-output")
            options.dependency_file = Path(value)
        elif arg.startswith(("-MT", "--dependency-target-name")):
            value, i = _take_value(args, i, "-MT" if arg.startswith("-MT") else "--dependency-target-name")
            options.dependency_targets.append(value)
        elif arg == "-x" and i + 1 < len(args) and args[i + 1] in ("cu", "c++"):
            options.all_cuda = args[i + 1] == "cu"  # -x cu : toutes les sources sont du CUDA
            i += 2
        else:
            raise UsageError(f"option inconnue : {arg}")
    if not options.sources and not options.objects:
        raise UsageError("aucune source (.cu, .cpp) ni aucun objet (.o) à compiler")
    if options.compile_only and options.objects:
        raise UsageError("-c compile des sources : les objets ne se passent qu'à l'édition de liens")
    if options.compile_only and options.output and len(options.sources) > 1:
        raise UsageError("-c avec -o n'accepte qu'une source (un objet par source)")
    if options.dependencies is None and (options.dependency_file or options.dependency_targets
                                         or options.phony_headers):
        raise UsageError("-MF, -MT et -MP règlent le fichier de dépendances : ils demandent -MD ou -MMD")
    if options.dependencies and not options.compile_only:
        raise UsageError(f"{options.dependencies} s'emploie avec -c : un fichier de dépendances par objet")
    if options.dependency_file and len(options.sources) > 1:
        raise UsageError("-MF n'accepte qu'une source (un fichier de dépendances par objet)")
    return options


# ---------------------------------------------------------------------------------------
# Construction : libsimt, réglages de g++
# ---------------------------------------------------------------------------------------


@dataclass
class Toolchain:
    build: Path
    cuda_include: Path
    cache: str

    @staticmethod
    def find() -> Toolchain:
        build = Path(os.environ.get("SIMT_BUILD", ROOT / "build"))
        cache_file = build / "CMakeCache.txt"
        if not cache_file.is_file():
            raise UsageError(f"dossier de construction absent ({build}) ; lancez d'abord "
                             "« cmake --preset default » à la racine du dépôt, ou donnez "
                             "SIMT_BUILD")
        cache = cache_file.read_text(errors="replace")
        match = re.search(r"^CMAKE_CUDA_COMPILER:\w+=(.+)$", cache, re.M)
        nvcc = match.group(1) if match else shutil.which("nvcc")
        if nvcc is None:
            raise UsageError("toolkit CUDA introuvable (ni dans CMakeCache.txt ni nvcc dans PATH)")
        cuda_include = Path(nvcc).parents[1] / "include"
        return Toolchain(build, cuda_include, cache)

    def cache_has(self, line: str) -> bool:
        return re.search("^" + re.escape(line) + "$", self.cache, re.M) is not None

    def machine_flags(self) -> list[str]:
        """Réglages communs à la compilation et à l'édition de liens, ceux de la construction
        CMake : FMA si le processeur l'a (comme nvcc), sanitizers si libsimt en a."""
        flags = []
        if self.cache_has("SIMT_HAS_FMA:INTERNAL=1"):
            flags += ["-mfma", "-ffp-contract=fast"]
        if self.cache_has("NOYAUX_SANITIZE:BOOL=ON"):
            flags += ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
        return flags

    def compile_flags(self, options: Options) -> list[str]:
        """Le seul endroit où se décident les drapeaux de g++ pour une source CUDA."""
        include = ROOT / "simt" / "include"
        return ([f"-std={options.std}", options.optimization, "-Wno-unknown-pragmas"]
                + self.machine_flags()
                + ["-include", str(include / "simt" / "simt.hpp")]
                + options.defines
                + [flag for directory in options.includes
                   for flag in ("-I", str(mirror_root_of(directory)), "-I", str(directory))]
                + ["-I", str(include / "shim"), "-I", str(include),
                   "-isystem", str(self.cuda_include), "-isystem", str(self.cuda_include / "cccl")]
                + options.host_flags)

    def library(self) -> Path:
        """libsimt.a, reconstruite si besoin (sous verrou : make -j peut lier plusieurs
        programmes à la fois)."""
        with open(self.build / ".simt-driver.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            built = subprocess.run(["cmake", "--build", str(self.build), "--target", "simt"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if built.returncode != 0:
            sys.stderr.write(built.stderr)
            raise UsageError(f"la construction de libsimt a échoué (cmake --build {self.build} --target simt)")
        return self.build / "simt" / "libsimt.a"

    def link(self, objects: list[Path], options: Options, output: Path) -> None:
        command = (["g++", "-rdynamic"] + self.machine_flags()
                   + [str(o) for o in objects] + [str(self.library())]
                   + options.link_flags + ["-lboost_context", "-pthread", "-o", str(output)])
        if subprocess.run(command).returncode != 0:
            raise BuildError()


class BuildError(Exception):
    """g++ a échoué : ses messages sont déjà affichés."""


# ---------------------------------------------------------------------------------------
# Réécriture d'une source et de ses en-têtes locaux
# ---------------------------------------------------------------------------------------

_mirror: Path | None = None


def mirror_root_of(path: Path) -> Path:
    """Place de la copie réécrite de path : même chemin absolu, sous le dossier miroir."""
    assert _mirror is not None
    return _mirror / os.path.normpath(path.absolute()).lstrip(os.sep)


def is_outside_project(path: Path, toolchain: Toolchain) -> bool:
    """En-têtes du système, du toolkit ou de simt : jamais réécrits."""
    excluded = [toolchain.cuda_include.parent, toolchain.cuda_include.resolve().parent,
                ROOT / "simt" / "include", Path("/usr/include"), Path("/usr/lib"),
                Path("/usr/local/include")]
    normalized = Path(os.path.normpath(path.absolute()))
    return any(candidate.is_relative_to(root) for root in excluded
               for candidate in (normalized, normalized.resolve()))


def local_headers(source: Path, options: Options, toolchain: Toolchain) -> set[Path]:
    """Tous les en-têtes que source inclut, directement ou non, trouvés à côté de
    l'incluant (pour "…") ou sous un -I, hors système et toolkit : ceux que g++ trouverait
    avant les siens. Une inclusion conditionnelle compte aussi (réécrire en trop ne coûte rien)."""
    found: set[Path] = set()
    pending = [source]
    while pending:
        current = pending.pop()
        _, code_and_strings = simt_rewrite.mask_source(simt_rewrite.read_text(current))
        for match in INCLUDE.finditer(code_and_strings):
            quote, name = match.groups()
            candidates = ([current.parent] if quote == '"' else []) + options.includes
            for directory in candidates:
                header = Path(os.path.normpath(directory / name))
                if header.is_file():
                    if not is_outside_project(header, toolchain) and header not in found:
                        found.add(header)
                        pending.append(header)
                    break
    return found


def rewrite(source: Path, options: Options, toolchain: Toolchain, done: set[Path]) -> Path:
    """Réécrit source et ses en-têtes locaux dans le miroir ; rend la copie de source."""
    source = Path(os.path.normpath(source.absolute()))
    diagnostics = []
    for path in sorted({source} | local_headers(source, options, toolchain)):
        if path not in done:
            diagnostics += simt_rewrite.rewrite_file(path, mirror_root_of(path), str(path))
            done.add(path)
    if diagnostics:
        sys.stderr.write("\n".join(diagnostics) + "\n")
        raise BuildError()
    return mirror_root_of(source)


def dependency_flags(options: Options, object_file: Path, raw_file: Path) -> list[str]:
    """Ce que reçoit g++ pour écrire les dépendances de object_file dans raw_file (qui passe
    ensuite par write_dependencies)."""
    if options.dependencies is None:
        return []
    targets = options.dependency_targets or [str(object_file)]
    return ([options.dependencies, "-MF", str(raw_file)]
            + [flag for target in targets for flag in ("-MT", target)]
            + (["-MP"] if options.phony_headers else []))


def write_dependencies(options: Options, object_file: Path, raw_file: Path) -> None:
    """Le fichier de dépendances, comme nvcc l'écrirait : à l'endroit demandé par -MF, sinon à
    côté de l'objet (objet.d) ; les copies réécrites y redeviennent les fichiers d'origine, et
    un make qui l'inclut reconstruit l'objet quand un en-tête change."""
    if options.dependencies is None:
        return
    text = raw_file.read_text(encoding="utf-8", errors="surrogateescape")
    if _mirror is not None:
        text = text.replace(str(_mirror) + os.sep, os.sep)
    destination = options.dependency_file or object_file.with_suffix(".d")
    destination.write_text(text, encoding="utf-8", errors="surrogateescape")


def compile_host_source(source: Path, object_file: Path, options: Options, toolchain: Toolchain) -> None:
    """Un .cpp, comme nvcc le traite : confié au compilateur de l'hôte, sans le prélude CUDA
    (il inclut lui-même cuda_runtime.h s'il appelle l'API) ; une fonction hôte qui porte le
    nom d'une intrinsèque (umin…) y reste donc permise."""
    command = (["g++", "-c", f"-std={options.std}", options.optimization] + toolchain.machine_flags()
               + options.defines + [flag for directory in options.includes for flag in ("-I", str(directory))]
               + ["-isystem", str(toolchain.cuda_include), "-isystem", str(toolchain.cuda_include / "cccl")]
               + options.host_flags + ["-iquote", str(source.absolute().parent), str(source),
                                       "-o", str(object_file)]
               + dependency_flags(options, object_file, raw_dependencies(object_file)))
    if subprocess.run(command).returncode != 0:
        raise BuildError()
    write_dependencies(options, object_file, raw_dependencies(object_file))


def raw_dependencies(object_file: Path) -> Path:
    """Dépendances telles que g++ les écrit (chemins des copies réécrites), dans le dossier
    de travail : le fichier demandé n'est écrit qu'une fois ces chemins traduits."""
    assert _mirror is not None
    return _mirror.parent / "dependances" / (object_file.name + ".d")


def compile_source(source: Path, object_file: Path, options: Options, toolchain: Toolchain,
                   done: set[Path]) -> None:
    if source.suffix != ".cu" and not options.all_cuda:
        compile_host_source(source, object_file, options, toolchain)
        return
    copy = rewrite(source, options, toolchain, done)
    command = (["g++", "-x", "c++", "-c"] + toolchain.compile_flags(options)
               + ["-iquote", str(source.absolute().parent), str(copy), "-o", str(object_file)]
               + dependency_flags(options, object_file, raw_dependencies(object_file)))
    if subprocess.run(command).returncode != 0:
        raise BuildError()
    write_dependencies(options, object_file, raw_dependencies(object_file))


def build(options: Options, tool: str, work: Path) -> Path | None:
    """Compile (et lie, sauf -c) ; rend le programme produit."""
    global _mirror
    _mirror = work / "src"
    (work / "dependances").mkdir(parents=True, exist_ok=True)
    toolchain = Toolchain.find()
    done: set[Path] = set()
    objects = []
    for index, source in enumerate(options.sources):
        if options.compile_only:
            object_file = options.output or Path(source.stem + ".o")
        else:
            object_file = work / "obj" / f"{index}-{source.stem}.o"
            object_file.parent.mkdir(parents=True, exist_ok=True)
        compile_source(source, object_file, options, toolchain, done)
        objects.append(object_file)
    if options.compile_only:
        return None
    program = options.output or (work / "programme" if tool == "run" else Path("a.out"))
    toolchain.link(objects + options.objects, options, program)
    return program


USAGE = {
    "run": "Usage : simt-run [OPTIONS] SOURCES... [--] [ARGUMENTS DU PROGRAMME...]\n"
           "Compile les sources CUDA (.cu, .cpp) pour l'émulateur simt et exécute le programme\n"
           "sur le processeur ; rend son code de sortie. Options de nvcc : -I, -D, -U, -std=,\n"
           "-o (garder le programme), -Xcompiler, -l, -L ; -arch, -gencode, -lineinfo, -O, -g,\n"
           "-G, --extended-lambda sont acceptées.",
    "nvcc": "Usage : simt-nvcc [OPTIONS] [-c] SOURCES... OBJETS... [-o SORTIE]\n"
            "Compile pour l'émulateur simt comme nvcc : -c produit un objet par source, sinon\n"
            "sources et objets sont liés en un programme (a.out par défaut). Options : -I, -D,\n"
            "-U, -std=, -o, -Xcompiler, -Xlinker, -l, -L ; avec -c, -MD, -MMD, -MF, -MT, -MP\n"
            "(dépendances pour make) ; -arch, -gencode, -lineinfo, -O, -g, -G,\n"
            "--extended-lambda sont acceptées.",
}


def main(tool: str, args: list[str]) -> int:
    name = "simt-run" if tool == "run" else "simt-nvcc"
    if not args or args[0] in ("-h", "--help", "--aide"):
        print(USAGE[tool], file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    try:
        options = parse(args, tool)
        with tempfile.TemporaryDirectory(prefix=f"{name}.") as work:
            program = build(options, tool, Path(work))
            if tool != "run":
                return 0
            sys.stdout.flush()
            return subprocess.run([str(program.absolute())] + options.program_arguments).returncode
    except UsageError as error:
        print(f"{name} : {error}", file=sys.stderr)
        return 2
    except BuildError:
        return 1


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in USAGE:
        print("Usage : simt_driver.py run|nvcc ARGUMENTS...", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
