# Programmes et données du système qu'utilisent le site et ses tests. Les chercher ici les
# inscrit dans CMakeCache.txt : le test des paquets Debian (tests/dependances) y lit ce que la
# construction a trouvé, et un manque s'annonce dès la configuration, en nommant le paquet.

function(noyaux_require_program variable program package)
  find_program(${variable} ${program})
  if(NOT ${variable})
    message(FATAL_ERROR "${program} introuvable : lancez ./ci/setup (paquet Debian ${package})")
  endif()
endfunction()

function(noyaux_require_file variable directory package)
  find_file(${variable} NAMES ${ARGN} PATHS ${directory} NO_DEFAULT_PATH)
  if(NOT ${variable})
    list(JOIN ARGN " ou " names)
    message(FATAL_ERROR "${names} introuvable dans ${directory} : lancez ./ci/setup "
                        "(paquet Debian ${package})")
  endif()
endfunction()

noyaux_require_program(NOYAUX_DOXYGEN doxygen doxygen)
noyaux_require_program(NOYAUX_DOT dot graphviz)            # graphes de Doxygen (HAVE_DOT)
noyaux_require_program(NOYAUX_HUNSPELL hunspell hunspell)  # orthographe du site
noyaux_require_program(NOYAUX_CHROMIUM chromium chromium)  # test du navigateur
noyaux_require_program(NOYAUX_CHROMEDRIVER chromedriver chromium-driver)
# Le site sert KaTeX et ses polices lui-même ; hunspell lit le dictionnaire français ;
# Chromium rend les captures avec les polices DejaVu.
noyaux_require_file(NOYAUX_KATEX_JS /usr/share/javascript/katex libjs-katex katex.min.js)
get_filename_component(NOYAUX_KATEX_DIR ${NOYAUX_KATEX_JS} DIRECTORY)
noyaux_require_file(NOYAUX_HUNSPELL_FR /usr/share/hunspell hunspell-fr fr_FR.dic fr.dic)
noyaux_require_file(NOYAUX_DEJAVU /usr/share/fonts/truetype/dejavu fonts-dejavu-core DejaVuSans.ttf)
