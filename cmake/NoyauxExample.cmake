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
#   .sass   les attentes sur le code machine, pour chaque architecture de CMAKE_CUDA_ARCHITECTURES ;
#   .cli    le programme refuse les arguments invalides avec un message clair et un code non nul.
#
# Arguments :
#   BACKENDS             gpu, et cpu quand l'émulateur exécute l'exemple ;
#   SASS_KERNEL nom      noyau dont on inspecte le code machine (sous-chaîne du nom démanglé) ;
#   SASS_EXPECT ...      attentes : « contient MOTIF », « absent MOTIF », « sans-debordement »,
#                        « registres<=N », préfixées au besoin par « sm_90a: » ;
#   REJECT args motif    paires (arguments, expression régulière attendue dans le message) ;
#   NO_BENCHMARK_REASON  pourquoi l'exemple n'a pas de benchmark (sans bench.cu, noyaux-integrite
#                        l'exige) ;
#   LIBRARIES ...        bibliothèques de la partie pour le backend gpu (ex. noyaux_gemm) ;
#   CPU_LIBRARIES ...    leurs équivalents pour l'émulateur (ex. noyaux_gemm_cpu).

set(NOYAUX_EXPECT_REJECTION_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/expect_rejection.cmake)

function(noyaux_add_example)
  cmake_parse_arguments(PARSE_ARGV 0 EX "" "SASS_KERNEL;NO_BENCHMARK_REASON"
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
      add_dependencies(simt-tout ${target})
    endforeach()
    add_test(NAME ${test_prefix}.cpu COMMAND ${id}-test-cpu)
    set_tests_properties(${test_prefix}.cpu PROPERTIES LABELS "cpu;simt;${part}")
    list(APPEND tests ${test_prefix}.cpu)
  endif()

  # Le benchmark, ou la raison de son absence.
  if(EXISTS ${dir}/bench.cu)
    add_executable(${id}-bench bench.cu)
    target_link_libraries(${id}-bench PRIVATE ${EX_LIBRARIES} noyaux_common noyaux_bench_main noyaux_warnings)
    add_test(NAME ${test_prefix}.bench COMMAND ${id}-bench --benchmark_min_time=0.01)
    set_tests_properties(${test_prefix}.bench PROPERTIES
      LABELS "gpu;bench;${part}" SKIP_RETURN_CODE ${NOYAUX_SKIP_RETURN_CODE})
    list(APPEND tests ${test_prefix}.bench)
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

# Un test « sass » sur le code machine d'un noyau du programme.
function(noyaux_internal_sass_test test_name id part kernel)
  string(REPLACE ";" "," archs "${CMAKE_CUDA_ARCHITECTURES}")
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
