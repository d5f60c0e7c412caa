#!/bin/sh
# verifier-dependances.sh PROJET SIMT_NVCC DOSSIER : construit une copie du projet par
# Makefile.dependances avec simt-nvcc, puis vérifie les fichiers de dépendances : ils citent
# les en-têtes d'origine (pas les copies réécrites de simt), et un en-tête modifié fait
# reconstruire les seuls objets qui l'incluent.
set -eu
projet=$1 nvcc=$2 travail=$3
rm -rf "$travail"
mkdir -p "$travail/src"
cp "$projet"/*.cu "$projet"/*.cuh "$projet"/*.cpp "$projet"/*.hpp "$projet/Makefile.dependances" "$travail/src/"
cd "$travail"
construire() { make -f src/Makefile.dependances SRC=src NVCC="$nvcc" "$@"; }
echec() { echo "verifier-dependances : $*" >&2; exit 1; }

construire >/dev/null
grep -q "src/echelle.cuh" main.d || echec "main.d ne cite pas src/echelle.cuh"
grep -q "^src/noyaux.cuh:" verification.dep || echec "verification.dep (-MF, -MP) sans cible vide pour noyaux.cuh"
grep -q "^verification.o:" verification.dep || echec "verification.dep ne nomme pas la cible de -MT"
if grep -q "simt-nvcc\." main.d noyaux.d verification.dep; then
  echec "un fichier de dépendances cite une copie réécrite"
fi
construire -q || echec "tout est à jour, make ne devrait rien reconstruire"

sleep 1
touch src/echelle.cuh  # inclus par main.cu seul
a_refaire=$(construire -n | grep -o -- "-c [^ ]*" | tr '\n' ' ')
[ "$a_refaire" = "-c src/main.cu " ] || echec "après echelle.cuh, à recompiler : « $a_refaire » (attendu : src/main.cu)"
construire >/dev/null
./programme
