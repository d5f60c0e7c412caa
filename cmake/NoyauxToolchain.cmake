# Réglages communs : ccache, avertissements traités comme des erreurs, outils Python.

find_program(NOYAUX_CCACHE ccache)
if(NOYAUX_CCACHE)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${NOYAUX_CCACHE})
  set(CMAKE_CUDA_COMPILER_LAUNCHER ${NOYAUX_CCACHE})
endif()

find_package(CUDAToolkit REQUIRED)
# CUDA::nvrtc de FindCUDAToolkit tire CUDA::cuda_driver, l'ébauche de libcuda : un programme lié
# avec -Wl,--no-as-needed (ce qu'impose AddressSanitizer) exigerait libcuda.so.1 au démarrage et
# ne démarrerait pas sans pilote. libnvrtc n'en a pas besoin : cette cible-ci ne le tire pas.
get_target_property(noyaux_nvrtc_location CUDA::nvrtc IMPORTED_LOCATION)
add_library(noyaux_nvrtc SHARED IMPORTED GLOBAL)
set_target_properties(noyaux_nvrtc PROPERTIES
  IMPORTED_LOCATION ${noyaux_nvrtc_location}
  INTERFACE_INCLUDE_DIRECTORIES "${CUDAToolkit_INCLUDE_DIRS}")
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)

# Avertissements = erreurs, pour le code hôte comme pour le code du périphérique.
add_library(noyaux_warnings INTERFACE)
target_compile_options(noyaux_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror>
  $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Wshadow,-Werror>)

# NOYAUX_SANITIZE (preset sanitize) : les cibles de l'émulateur simt, donc les tests cpu,
# sont compilées avec AddressSanitizer et UBSan (voir simt/CMakeLists.txt).

# Site, référence API, tests « sass », « docs » et « browser » : ils demandent l'environnement
# Python de ci/setup. Une machine GPU nue peut s'en passer (preset gpu).
option(NOYAUX_WITH_SITE "Site, Doxygen et tests sass/docs/browser (environnement .venv requis)" ON)
if(NOYAUX_WITH_SITE)
  set(NOYAUX_VENV ${CMAKE_SOURCE_DIR}/.venv)
  find_program(NOYAUX_PYTHON python NO_DEFAULT_PATH PATHS ${NOYAUX_VENV}/bin)
  if(NOT NOYAUX_PYTHON)
    message(FATAL_ERROR "Environnement Python absent (${NOYAUX_VENV}) : lancez d'abord ./ci/setup")
  endif()
  file(GLOB NOYAUX_CUOBJDUMP ${NOYAUX_VENV}/lib/python3*/site-packages/nvidia/cu13/bin/cuobjdump)
  if(NOT NOYAUX_CUOBJDUMP)
    message(FATAL_ERROR "cuobjdump absent de ${NOYAUX_VENV} : lancez ./ci/setup (paquet nvidia-cuda-cuobjdump)")
  endif()
  get_filename_component(NOYAUX_CUDA_TOOLS_BIN ${NOYAUX_CUOBJDUMP} DIRECTORY)
  include(NoyauxDependances)
endif()

# Code de retour par lequel un test signale à ctest qu'il est ignoré (aucun GPU utilisable).
set(NOYAUX_SKIP_RETURN_CODE 77)
