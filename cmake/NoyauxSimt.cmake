# Réécriture des sources CUDA pour l'émulateur simt, au moment de la construction.
#
# simt_rewritten_sources(OUT_VAR FILE...) : pour chaque fichier du dépôt, une copie
# réécrite sous ${PROJECT_BINARY_DIR}/simt-src/ (même chemin relatif), refaite quand
# l'original ou le réécrivain change. Les .cu réécrits se compilent comme du C++.
# Les en-têtes voisins doivent aussi être réécrits : les inclusions relatives les
# trouvent alors à côté, dans l'arbre réécrit.

find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(SIMT_REWRITER ${PROJECT_SOURCE_DIR}/simt/rewrite/simt_rewrite.py)
set(SIMT_SOURCE_ROOT ${PROJECT_BINARY_DIR}/simt-src)
# Le paquet de traduction du PTX en ligne fait partie du réécrivain.
file(GLOB SIMT_REWRITER_PTX CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/simt/rewrite/ptx/*.py)

function(simt_rewritten_sources out_var)
  set(outputs "")
  foreach(file IN LISTS ARGN)
    get_filename_component(absolute ${file} ABSOLUTE)
    file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${absolute})
    set(output ${SIMT_SOURCE_ROOT}/${relative})
    add_custom_command(OUTPUT ${output}
      COMMAND ${Python3_EXECUTABLE} ${SIMT_REWRITER} ${absolute} ${output}
      DEPENDS ${absolute} ${SIMT_REWRITER} ${SIMT_REWRITER_PTX}
      COMMENT "simt : réécriture de ${relative}" VERBATIM)
    if(output MATCHES "\\.cu$")
      set_source_files_properties(${output} PROPERTIES LANGUAGE CXX)
    endif()
    list(APPEND outputs ${output})
  endforeach()
  set(${out_var} ${outputs} PARENT_SCOPE)
endfunction()
