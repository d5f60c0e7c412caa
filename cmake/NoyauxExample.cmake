# noyaux_add_example() : déclare l'exemple du dossier courant, examples/<partie>/<NN-slug>/.
#
# Cibles créées (identifiant <partie>-<NN-slug>) :
#   <id>         le programme (main.cu), nommé <slug> ;
#   <id>-test    les tests GoogleTest (test.cu) ;
#   <id>-bench   le benchmark Google Benchmark (bench.cu), s'il existe.
# Tests ctest, nommés <partie>.<NN-slug>.<type> :
#   .gpu    test.cu sur un vrai GPU ; ignoré (Skipped) si aucun n'est utilisable ;
#   .cpu    le même test.cu sur l'émulateur simt (si BACKENDS contient cpu) ;
#   .bench  le benchmark, exécuté brièvement pour vérifier qu'il tourne (GPU requis) ;
#   .sass   les attentes sur le code machine, pour chaque architecture du programme (propriété
#           CUDA_ARCHITECTURES de sa cible : CMAKE_CUDA_ARCHITECTURES, sauf ajout explicite) ;
#   .cli    le programme refuse les arguments invalides avec un message clair et un code non nul ;
#   .cpu-132sm  avec SIZED_BY_DEVICE : le test .cpu sur un simt à 132 multiprocesseurs.
#
# Arguments :
#   BACKENDS             gpu, et cpu quand l'émulateur exécute l'exemple ;
#   SASS_KERNEL nom      noyau dont on inspecte le code machine (sous-chaîne du nom démanglé) ;
#   SASS_EXPECT ...      attentes : « contient MOTIF », « absent MOTIF », « predique MOTIF »,
#                        « sans-debordement », « registres<=N », « registres==N », « part-ffma>=P » (boucle
#                        principale = boucle des tuiles de K, P % de FFMA au moins),
#                        « warps-par-sm>=N » (occupation, sm_90a seulement), préfixées au
#                        besoin par « sm_90a: » (tests/sass/verifier_sass.py les décrit) ;
#   REJECT args motif    paires (arguments, expression régulière attendue dans le message) ;
#   NO_BENCHMARK_REASON  pourquoi l'exemple n'a pas de benchmark (sans bench.cu, noyaux-integrite
#                        l'exige) ;
#   LIBRARIES ...        bibliothèques de la partie pour le backend gpu (ex. noyaux_gemm) ;
#   CPU_LIBRARIES ...    leurs équivalents pour l'émulateur (ex. noyaux_gemm_cpu) ;
#   GROUPED              les tests et le benchmark de l'exemple rejoignent les binaires communs
#                        de sa partie (voir noyaux_add_part_binaries) au lieu d'avoir les leurs :
#                        une partie de petits exemples se construit ainsi bien plus vite ;
#   TEST_FILTER motif    avec GROUPED : les suites GoogleTest de l'exemple (--gtest_filter) ;
#   BENCH_FILTER regex   avec GROUPED et bench.cu : ses benchmarks (--benchmark_filter) ;
#   SIZED_BY_DEVICE      la grille dépend du périphérique (noyau persistant, Stream-K, grille
#                        coopérative) : le test .cpu est repris avec SIMT_SM=132, le nombre de
#                        multiprocesseurs d'un H100 SXM ou d'un H200, pour qu'un test écrit pour
#                        les 4 de simt échoue ici plutôt que sur le premier GPU ;
#   HOST_TESTS_CPU       avec GROUPED, pour un exemple réservé au GPU (BACKENDS gpu) : son test.cu
#                        est aussi compilé pour l'émulateur, sans ses noyaux (qu'il n'inclut que
#                        hors SIMT_EMULATOR), pour exécuter partout les tests de sa logique
#                        hôte (<nom>.hpp) ; pas de programme -cpu.

set(NOYAUX_EXPECT_REJECTION_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/expect_rejection.cmake)

function(noyaux_add_example)
  cmake_parse_arguments(PARSE_ARGV 0 EX "GROUPED;HOST_TESTS_CPU;SIZED_BY_DEVICE" "SASS_KERNEL;NO_BENCHMARK_REASON;TEST_FILTER;BENCH_FILTER"
                        "BACKENDS;SASS_EXPECT;REJECT;LIBRARIES;CPU_LIBRARIES")
  if(EX_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "noyaux_add_example : arguments inconnus : ${EX_UNPARSED_ARGUMENTS}")
  endif()

  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  get_filename_component(slug ${dir} NAME)
  get_filename_component(part_dir ${dir} DIRECTORY)
  get_filename_component(part ${part_dir} NAME)
  if(NOT slug MATCHES "^[0-9][0-9]-[a-z0-9-]+$")
    message(FATAL_ERROR "${dir} : le dossier d'un exemple se nomme NN-slug (ex. 01-boucle-grid-stride)")
  endif()
  string(REGEX REPLACE "^[0-9]+-" "" name ${slug})
  set(id ${part}-${slug})
  set(test_prefix ${part}.${slug})
  set(tests "")

  # Les fichiers requis d'un exemple et leur ordre de lecture sont vérifiés par
  # noyaux-integrite (tools/integrite/anatomy.hpp), seul endroit où ils sont écrits.
  if(NOT EX_BACKENDS)
    message(FATAL_ERROR "${dir} : BACKENDS manquant (gpu, cpu)")
  endif()

  # Le programme.
  add_executable(${id} main.cu)
  set_target_properties(${id} PROPERTIES OUTPUT_NAME ${name})
  target_link_libraries(${id} PRIVATE ${EX_LIBRARIES} noyaux_common noyaux_warnings)

  if(EX_GROUPED)
    noyaux_internal_grouped_example()
  else()
    # Les tests, sur GPU.
    add_executable(${id}-test test.cu)
    target_link_libraries(${id}-test PRIVATE ${EX_LIBRARIES} noyaux_common noyaux_gpu_test_main noyaux_warnings)
    add_test(NAME ${test_prefix}.gpu COMMAND ${id}-test)
    set_tests_properties(${test_prefix}.gpu PROPERTIES
      LABELS "gpu;${part}" SKIP_RETURN_CODE ${NOYAUX_SKIP_RETURN_CODE})
    list(APPEND tests ${test_prefix}.gpu)

    # Les mêmes tests sur l'émulateur simt : même source, mêmes assertions.
    if("cpu" IN_LIST EX_BACKENDS AND NOYAUX_WITH_SIMT)
      file(GLOB headers CONFIGURE_DEPENDS ${dir}/*.cuh ${dir}/*.hpp)
      # En-têtes réécrits une seule fois (une cible à eux), avant les deux programmes.
      simt_rewritten_sources(cpu_headers ${headers})
      add_custom_target(${id}-simt-sources DEPENDS ${cpu_headers})
      simt_rewritten_sources(cpu_test ${dir}/test.cu)
      add_executable(${id}-test-cpu ${cpu_test})
      target_link_libraries(${id}-test-cpu PRIVATE ${EX_CPU_LIBRARIES} noyaux_common_cpu noyaux_test_main_cpu)
      # Le programme aussi, pour qui n'a pas de GPU : <nom>-cpu.
      simt_rewritten_sources(cpu_program ${dir}/main.cu)
      add_executable(${id}-cpu ${cpu_program})
      target_link_libraries(${id}-cpu PRIVATE ${EX_CPU_LIBRARIES} noyaux_common_cpu)
      set_target_properties(${id}-cpu PROPERTIES OUTPUT_NAME ${name}-cpu)
      foreach(target ${id}-test-cpu ${id}-cpu)
        set_target_properties(${target} PROPERTIES ENABLE_EXPORTS ON)
        add_dependencies(${target} ${id}-simt-sources)
      endforeach()
      noyaux_internal_emulated_targets(${id}-test-cpu PROGRAMS ${id}-cpu)
      add_test(NAME ${test_prefix}.cpu COMMAND ${id}-test-cpu)
      set_tests_properties(${test_prefix}.cpu PROPERTIES LABELS "cpu;simt;${part}")
      list(APPEND tests ${test_prefix}.cpu)
      noyaux_internal_device_sized_test($<TARGET_FILE:${id}-test-cpu>)
    endif()

    # Le benchmark.
    if(EXISTS ${dir}/bench.cu)
      add_executable(${id}-bench bench.cu)
      target_link_libraries(${id}-bench PRIVATE ${EX_LIBRARIES} noyaux_common noyaux_bench_main noyaux_warnings)
      add_test(NAME ${test_prefix}.bench COMMAND ${id}-bench --benchmark_min_time=0.01)
      set_tests_properties(${test_prefix}.bench PROPERTIES
        LABELS "gpu;bench;${part}" SKIP_RETURN_CODE ${NOYAUX_SKIP_RETURN_CODE})
      list(APPEND tests ${test_prefix}.bench)
    endif()
  endif()

  # Le benchmark, ou la raison de son absence.
  if(EXISTS ${dir}/bench.cu)
    set(benchmark "bench.cu")
  else()
    # Le manifeste est un TSV : une raison écrite sur plusieurs lignes y tient sur une seule.
    # Sans raison, la colonne reste « sans benchmark : » et noyaux-integrite le signale.
    string(REGEX REPLACE "[ \t\r\n]+" " " reason "${EX_NO_BENCHMARK_REASON}")
    set(benchmark "sans benchmark : ${reason}")
  endif()

  # Le code machine, architecture par architecture.
  if(EX_SASS_EXPECT AND NOYAUX_WITH_SITE)
    if(NOT EX_SASS_KERNEL)
      message(FATAL_ERROR "${dir} : SASS_EXPECT demande SASS_KERNEL")
    endif()
    noyaux_internal_sass_test(${test_prefix}.sass ${id} ${part} ${EX_SASS_KERNEL} ${EX_SASS_EXPECT})
    list(APPEND tests ${test_prefix}.sass)
  endif()

  # Les arguments invalides sont refusés, sans GPU nécessaire.
  if(EX_REJECT)
    list(LENGTH EX_REJECT count)
    math(EXPR odd "${count} % 2")
    if(odd)
      message(FATAL_ERROR "${dir} : REJECT attend des paires (arguments, motif du message)")
    endif()
    set(cases "")
    math(EXPR last "${count} - 1")
    foreach(i RANGE 0 ${last} 2)
      math(EXPR j "${i} + 1")
      list(GET EX_REJECT ${i} arguments)
      list(GET EX_REJECT ${j} pattern)
      string(APPEND cases "${arguments}\t${pattern}\n")
    endforeach()
    file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/cli-rejets.tsv CONTENT "${cases}" @ONLY)
    add_test(NAME ${test_prefix}.cli
      COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${id}>
              -DCASES=${CMAKE_CURRENT_BINARY_DIR}/cli-rejets.tsv
              -P ${NOYAUX_EXPECT_REJECTION_SCRIPT})
    set_tests_properties(${test_prefix}.cli PROPERTIES LABELS "cpu;${part}")
    list(APPEND tests ${test_prefix}.cli)
  endif()

  # Manifeste lu par le site (encadré « Exemple compilable ») et par la vérification d'intégrité.
  file(RELATIVE_PATH rel_dir ${PROJECT_SOURCE_DIR} ${dir})
  list(JOIN EX_BACKENDS "," backends)
  set_property(GLOBAL APPEND PROPERTY NOYAUX_EXAMPLE_IDS ${id})
  set_property(GLOBAL PROPERTY NOYAUX_EXAMPLE_${id}_ROW "${part}\t${slug}\t${rel_dir}\t${name}\t${backends}")
  set_property(GLOBAL PROPERTY NOYAUX_EXAMPLE_${id}_TESTS ${tests})
  set_property(GLOBAL PROPERTY NOYAUX_EXAMPLE_${id}_BENCHMARK "${benchmark}")
endfunction()

# Avec SIZED_BY_DEVICE, le test .cpu repris sur 132 multiprocesseurs émulés (même portée de
# variables que noyaux_add_example). Hors du label simt : sanitize ne le relance pas.
macro(noyaux_internal_device_sized_test)
  if(EX_SIZED_BY_DEVICE)
    add_test(NAME ${test_prefix}.cpu-132sm COMMAND ${ARGN})
    set_tests_properties(${test_prefix}.cpu-132sm PROPERTIES
      LABELS "cpu;${part}" ENVIRONMENT "SIMT_SM=132" FAIL_REGULAR_EXPRESSION "Running 0 tests")
    list(APPEND tests ${test_prefix}.cpu-132sm)
  endif()
endmacro()

# Partie de noyaux_add_example pour un exemple GROUPED (même portée de variables) : les
# tests ctest visent les binaires communs de la partie, filtrés sur les suites de l'exemple ;
# les sources sont notées pour noyaux_add_part_binaries.
macro(noyaux_internal_grouped_example)
  if(NOT EX_TEST_FILTER)
    message(FATAL_ERROR "${dir} : GROUPED demande TEST_FILTER (suites GoogleTest de l'exemple)")
  endif()
  set_property(GLOBAL APPEND PROPERTY NOYAUX_PART_${part}_EXAMPLES ${dir})
  set_property(GLOBAL APPEND PROPERTY NOYAUX_PART_${part}_PROGRAMS ${id})
  set_property(GLOBAL APPEND PROPERTY NOYAUX_PART_${part}_LIBRARIES ${EX_LIBRARIES})
  set_property(GLOBAL APPEND PROPERTY NOYAUX_PART_${part}_CPU_LIBRARIES ${EX_CPU_LIBRARIES})
  # Un filtre qui ne retient aucun test ne doit pas passer pour un succès.
  add_test(NAME ${test_prefix}.gpu
    COMMAND $<TARGET_FILE:${part}-tests> --gtest_filter=${EX_TEST_FILTER})
  set_tests_properties(${test_prefix}.gpu PROPERTIES
    LABELS "gpu;${part}" SKIP_RETURN_CODE ${NOYAUX_SKIP_RETURN_CODE}
    FAIL_REGULAR_EXPRESSION "Running 0 tests")
  list(APPEND tests ${test_prefix}.gpu)
  if(("cpu" IN_LIST EX_BACKENDS OR EX_HOST_TESTS_CPU) AND NOYAUX_WITH_SIMT)
    if("cpu" IN_LIST EX_BACKENDS)
      set_property(GLOBAL APPEND PROPERTY NOYAUX_PART_${part}_CPU_EXAMPLES ${dir})
    else()
      set_property(GLOBAL APPEND PROPERTY NOYAUX_PART_${part}_HOST_EXAMPLES ${dir})
    endif()
    add_test(NAME ${test_prefix}.cpu
      COMMAND $<TARGET_FILE:${part}-tests-cpu> --gtest_filter=${EX_TEST_FILTER})
    set_tests_properties(${test_prefix}.cpu PROPERTIES
      LABELS "cpu;simt;${part}" FAIL_REGULAR_EXPRESSION "Running 0 tests")
    list(APPEND tests ${test_prefix}.cpu)
    if("cpu" IN_LIST EX_BACKENDS)
      noyaux_internal_device_sized_test($<TARGET_FILE:${part}-tests-cpu> --gtest_filter=${EX_TEST_FILTER})
    endif()
  endif()
  if(EXISTS ${dir}/bench.cu)
    if(NOT EX_BENCH_FILTER)
      message(FATAL_ERROR "${dir} : GROUPED avec bench.cu demande BENCH_FILTER")
    endif()
    set_property(GLOBAL APPEND PROPERTY NOYAUX_PART_${part}_BENCHMARKS ${dir}/bench.cu)
    add_test(NAME ${test_prefix}.bench
      COMMAND $<TARGET_FILE:${part}-bench> --benchmark_filter=${EX_BENCH_FILTER}
              --benchmark_min_time=0.01)
    set_tests_properties(${test_prefix}.bench PROPERTIES
      LABELS "gpu;bench;${part}" SKIP_RETURN_CODE ${NOYAUX_SKIP_RETURN_CODE}
      FAIL_REGULAR_EXPRESSION "Failed to match any benchmarks")
    list(APPEND tests ${test_prefix}.bench)
  endif()
endmacro()

# noyaux_add_part_binaries(partie) : après les add_subdirectory des exemples GROUPED d'une
# partie, crée ses binaires communs : <partie>-tests (tous les test.cu, sur GPU),
# <partie>-tests-cpu (les mêmes sur l'émulateur), <partie>-bench (tous les bench.cu) et, pour
# chaque exemple cpu, son programme <nom>-cpu ; <partie>-tout les construit tous, avec les
# programmes des exemples. Les réécritures pour simt sont déclarées ici,
# dans le dossier des cibles qui les consomment (exigence des générateurs Makefile).
function(noyaux_add_part_binaries part)
  get_property(examples GLOBAL PROPERTY NOYAUX_PART_${part}_EXAMPLES)
  get_property(cpu_examples GLOBAL PROPERTY NOYAUX_PART_${part}_CPU_EXAMPLES)
  get_property(host_examples GLOBAL PROPERTY NOYAUX_PART_${part}_HOST_EXAMPLES)
  get_property(benchmarks GLOBAL PROPERTY NOYAUX_PART_${part}_BENCHMARKS)
  get_property(libraries GLOBAL PROPERTY NOYAUX_PART_${part}_LIBRARIES)
  get_property(cpu_libraries GLOBAL PROPERTY NOYAUX_PART_${part}_CPU_LIBRARIES)
  list(REMOVE_DUPLICATES libraries)
  list(REMOVE_DUPLICATES cpu_libraries)
  if(NOT examples)
    message(FATAL_ERROR "noyaux_add_part_binaries(${part}) : aucun exemple GROUPED déclaré")
  endif()

  get_property(programs GLOBAL PROPERTY NOYAUX_PART_${part}_PROGRAMS)
  add_custom_target(${part}-tout)
  add_dependencies(${part}-tout ${programs} ${part}-tests)

  list(TRANSFORM examples APPEND /test.cu OUTPUT_VARIABLE test_sources)
  add_executable(${part}-tests ${test_sources})
  target_link_libraries(${part}-tests PRIVATE ${libraries} noyaux_common noyaux_gpu_test_main noyaux_warnings)

  if(benchmarks)
    add_executable(${part}-bench ${benchmarks})
    target_link_libraries(${part}-bench PRIVATE ${libraries} noyaux_common noyaux_bench_main noyaux_warnings)
    add_dependencies(${part}-tout ${part}-bench)
  endif()

  if((cpu_examples OR host_examples) AND NOYAUX_WITH_SIMT)
    set(headers "")
    foreach(dir IN LISTS cpu_examples)
      file(GLOB example_headers CONFIGURE_DEPENDS ${dir}/*.cuh ${dir}/*.hpp)
      list(APPEND headers ${example_headers})
    endforeach()
    # Exemple réservé au GPU : seule sa logique hôte (.hpp) passe par la réécriture.
    foreach(dir IN LISTS host_examples)
      file(GLOB example_headers CONFIGURE_DEPENDS ${dir}/*.hpp)
      list(APPEND headers ${example_headers})
    endforeach()
    simt_rewritten_sources(cpu_headers ${headers})
    add_custom_target(${part}-simt-sources DEPENDS ${cpu_headers})
    set(cpu_test_sources ${cpu_examples} ${host_examples})
    list(TRANSFORM cpu_test_sources APPEND /test.cu)
    simt_rewritten_sources(cpu_tests ${cpu_test_sources})
    add_executable(${part}-tests-cpu ${cpu_tests})
    target_link_libraries(${part}-tests-cpu PRIVATE ${cpu_libraries} noyaux_common_cpu noyaux_test_main_cpu)
    set(cpu_targets ${part}-tests-cpu)
    foreach(dir IN LISTS cpu_examples)
      get_filename_component(slug ${dir} NAME)
      string(REGEX REPLACE "^[0-9]+-" "" name ${slug})
      simt_rewritten_sources(cpu_program ${dir}/main.cu)
      add_executable(${part}-${slug}-cpu ${cpu_program})
      target_link_libraries(${part}-${slug}-cpu PRIVATE ${cpu_libraries} noyaux_common_cpu)
      # À côté du programme GPU : build/examples/<partie>/<NN-slug>/<nom>-cpu.
      file(RELATIVE_PATH rel_dir ${PROJECT_SOURCE_DIR} ${dir})
      set_target_properties(${part}-${slug}-cpu PROPERTIES OUTPUT_NAME ${name}-cpu
        RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/${rel_dir})
      list(APPEND cpu_targets ${part}-${slug}-cpu)
    endforeach()
    foreach(target IN LISTS cpu_targets)
      set_target_properties(${target} PROPERTIES ENABLE_EXPORTS ON)
      add_dependencies(${target} ${part}-simt-sources)
      add_dependencies(${part}-tout ${target})
    endforeach()
    list(REMOVE_ITEM cpu_targets ${part}-tests-cpu)
    noyaux_internal_emulated_targets(${part}-tests-cpu PROGRAMS ${cpu_targets})
  endif()
endfunction()

# Rattache à simt-tout ce qui s'exécute sur l'émulateur : les binaires de test et les
# programmes -cpu. Sous le preset sanitize, qui ne lance que les tests, les programmes n'y
# entrent pas : les recompiler avec AddressSanitizer ne servirait à aucun test et coûterait
# une quarantaine de compilations (un test qui lance un programme -cpu le demande lui-même,
# par add_dependencies(simt-tout <programme>)).
function(noyaux_internal_emulated_targets tests)
  cmake_parse_arguments(PARSE_ARGV 1 EMU "" "" "PROGRAMS")
  add_dependencies(simt-tout ${tests})
  if(NOT NOYAUX_SANITIZE AND EMU_PROGRAMS)
    add_dependencies(simt-tout ${EMU_PROGRAMS})
  endif()
endfunction()

# Un test « sass » sur le code machine d'un noyau du programme, pour chaque architecture du
# programme (sa propriété CUDA_ARCHITECTURES : celles de CMAKE_CUDA_ARCHITECTURES, plus 100a
# pour un exemple Blackwell).
function(noyaux_internal_sass_test test_name id part kernel)
  set(archs "$<JOIN:$<TARGET_PROPERTY:${id},CUDA_ARCHITECTURES>,,>")
  set(expectations "")
  foreach(expectation IN LISTS ARGN)
    list(APPEND expectations --attendu "${expectation}")
  endforeach()
  add_test(NAME ${test_name}
    COMMAND ${NOYAUX_PYTHON} ${PROJECT_SOURCE_DIR}/tests/sass/verifier_sass.py
            --outils ${NOYAUX_CUDA_TOOLS_BIN} --binaire $<TARGET_FILE:${id}>
            --archs ${archs} --noyau ${kernel} ${expectations})
  set_tests_properties(${test_name} PROPERTIES LABELS "sass;${part}")
endfunction()

# noyaux_add_sass_test(SUFFIXE KERNEL nom EXPECT attentes...) : après noyaux_add_example, un
# test <partie>.<NN-slug>.sass-<suffixe> sur un autre noyau du même programme.
function(noyaux_add_sass_test suffix)
  cmake_parse_arguments(PARSE_ARGV 1 SASS "" "KERNEL" "EXPECT")
  if(NOT SASS_KERNEL OR NOT SASS_EXPECT)
    message(FATAL_ERROR "noyaux_add_sass_test(${suffix}) : KERNEL et EXPECT sont requis")
  endif()
  if(NOT NOYAUX_WITH_SITE)
    return()
  endif()
  get_filename_component(slug ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  get_filename_component(part_dir ${CMAKE_CURRENT_SOURCE_DIR} DIRECTORY)
  get_filename_component(part ${part_dir} NAME)
  set(test_name ${part}.${slug}.sass-${suffix})
  noyaux_internal_sass_test(${test_name} ${part}-${slug} ${part} ${SASS_KERNEL} ${SASS_EXPECT})
  set_property(GLOBAL APPEND PROPERTY NOYAUX_EXAMPLE_${part}-${slug}_TESTS ${test_name})
endfunction()

# Écrit build/noyaux-exemples.tsv (une ligne par exemple), seulement s'il change.
function(noyaux_write_example_manifest)
  get_property(ids GLOBAL PROPERTY NOYAUX_EXAMPLE_IDS)
  set(content "partie\tslug\tdossier\tnom\tbackends\ttests\tbenchmark\n")
  foreach(id IN LISTS ids)
    get_property(row GLOBAL PROPERTY NOYAUX_EXAMPLE_${id}_ROW)
    get_property(tests GLOBAL PROPERTY NOYAUX_EXAMPLE_${id}_TESTS)
    get_property(benchmark GLOBAL PROPERTY NOYAUX_EXAMPLE_${id}_BENCHMARK)
    list(JOIN tests "," test_list)
    string(APPEND content "${row}\t${test_list}\t${benchmark}\n")
  endforeach()
  file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/noyaux-exemples.tsv CONTENT "${content}" @ONLY)
endfunction()
