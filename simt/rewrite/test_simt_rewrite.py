"""Tests de simt_rewrite.py : lancements, mémoire partagée dynamique, fonctionnalités
non émulées, conservation des numéros de ligne, et interface en ligne de commande."""

import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import unittest

HERE = pathlib.Path(__file__).resolve().parent
REPOSITORY = HERE.parents[1]
SCRIPT = HERE / "simt_rewrite.py"
sys.path.insert(0, str(HERE))
from simt_rewrite import SOURCE_SUFFIXES, mask_source, rewrite_source  # noqa: E402


def rewrite(source, path="noyau.cu"):
    """Texte réécrit sans la directive #line, dont l'absence de diagnostic est vérifiée."""
    output, diagnostics = rewrite_source(source, path)
    if diagnostics:
        raise AssertionError(diagnostics)
    directive, _, body = output.partition("\n")
    assert directive.startswith("#line 1 "), directive
    return body


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


class RewriteTestCase(unittest.TestCase):
    def assertRewrite(self, source, expected):
        result = rewrite(source)
        self.assertEqual(result, expected)
        # Aucune réécriture n'ajoute ni ne retire de ligne.
        self.assertEqual(result.count("\n"), source.count("\n"))

    def assertUnchanged(self, source):
        self.assertRewrite(source, source)


class Launches(RewriteTestCase):
    def test_simple_launch(self):
        self.assertRewrite("k<<<1, 32>>>(p);", "::simt::launch(SIMT_KERNEL(k), 1, 32)(p);")

    def test_two_to_four_parameters(self):
        self.assertRewrite("k<<<g, b>>>(x);", "::simt::launch(SIMT_KERNEL(k), g, b)(x);")
        self.assertRewrite("k<<<g, b, octets>>>(x);", "::simt::launch(SIMT_KERNEL(k), g, b, octets)(x);")
        self.assertRewrite("saxpy<<<blocks, 256, 0, stream>>>(n, a, x, y);",
                           "::simt::launch(SIMT_KERNEL(saxpy), blocks, 256, 0, stream)(n, a, x, y);")

    def test_spaces_around_configuration(self):
        self.assertRewrite("k <<< g, b >>> (p);", "::simt::launch(SIMT_KERNEL(k), g, b) (p);")

    def test_configuration_with_parentheses_and_templates(self):
        self.assertRewrite("k<<<dim3(a, b), std::min<int>(a, b), sizeof(Pair<int, Vec<2>>)>>>(p);",
                           "::simt::launch(SIMT_KERNEL(k), dim3(a, b), std::min<int>(a, b), "
                           "sizeof(Pair<int, Vec<2>>))(p);")

    def test_configuration_ending_with_template_closing(self):
        self.assertRewrite("k<<<g, N<4>>>>(p);", "::simt::launch(SIMT_KERNEL(k), g, N<4>)(p);")

    def test_multiline_configuration_keeps_newlines(self):
        self.assertRewrite("k<<<\n    grille,\n    bloc>>>(\n    p);",
                           "::simt::launch(SIMT_KERNEL(k),\n    grille,\n    bloc)(\n    p);")
        self.assertRewrite("k\n<<<g, b>>>(p);", "::simt::launch(SIMT_KERNEL(k)\n, g, b)(p);")

    def test_template_kernels(self):
        self.assertRewrite("k<float><<<g, b>>>(p)", "::simt::launch(SIMT_KERNEL(k<float>), g, b)(p)")
        self.assertRewrite("k<float, 4><<<g, b>>>(p);", "::simt::launch(SIMT_KERNEL(k<float, 4>), g, b)(p);")
        # Le >> de Tile<2>> ferme deux niveaux de chevrons.
        self.assertRewrite("ns::k<T, Tile<2>><<<g, b>>>(p);",
                           "::simt::launch(SIMT_KERNEL(ns::k<T, Tile<2>>), g, b)(p);")
        self.assertRewrite("k<(N > 2), Tile<Pair<int, 2>>><<<g, b>>>(p);",
                           "::simt::launch(SIMT_KERNEL(k<(N > 2), Tile<Pair<int, 2>>>), g, b)(p);")

    def test_qualified_names(self):
        self.assertRewrite("noyaux::ressources::k<<<g, b>>>(p);",
                           "::simt::launch(SIMT_KERNEL(noyaux::ressources::k), g, b)(p);")
        self.assertRewrite("::k<<<g, b>>>(p);", "::simt::launch(SIMT_KERNEL(::k), g, b)(p);")
        self.assertRewrite("return ::k<<<g, b>>>(p);", "return ::simt::launch(SIMT_KERNEL(::k), g, b)(p);")
        self.assertRewrite("Outer<int>::k<<<g, b>>>(p);", "::simt::launch(SIMT_KERNEL(Outer<int>::k), g, b)(p);")

    def test_member_access_and_pointers(self):
        self.assertRewrite("obj.k<<<g, b>>>(p);", "::simt::launch(SIMT_KERNEL(obj.k), g, b)(p);")
        self.assertRewrite("ptr->k<<<g, b>>>(p);", "::simt::launch(SIMT_KERNEL(ptr->k), g, b)(p);")
        self.assertRewrite("(ptr)<<<g, b>>>(p);", "::simt::launch(SIMT_KERNEL((ptr)), g, b)(p);")
        self.assertRewrite("(*fp)<<<g, b>>>(p);", "::simt::launch(SIMT_KERNEL((*fp)), g, b)(p);")
        self.assertRewrite("table[i]<<<g, b>>>(p);", "::simt::launch(SIMT_KERNEL(table[i]), g, b)(p);")

    def test_statement_context(self):
        self.assertRewrite("if (ok) k<<<g, b>>>(p);", "if (ok) ::simt::launch(SIMT_KERNEL(k), g, b)(p);")
        self.assertRewrite("{k<<<g, b>>>(p);}", "{::simt::launch(SIMT_KERNEL(k), g, b)(p);}")
        # « case 1:::simt » se lirait « :: : » : une espace est insérée.
        self.assertRewrite("case 1:k<<<g, b>>>(p);", "case 1: ::simt::launch(SIMT_KERNEL(k), g, b)(p);")

    def test_launch_inside_lambda(self):
        self.assertRewrite("auto f = [&](int n) { k<<<n, 32>>>(p); };",
                           "auto f = [&](int n) { ::simt::launch(SIMT_KERNEL(k), n, 32)(p); };")

    def test_several_launches(self):
        self.assertRewrite("a<<<1, 1>>>(x);\nb<<<2, 2>>>(y);",
                           "::simt::launch(SIMT_KERNEL(a), 1, 1)(x);\n::simt::launch(SIMT_KERNEL(b), 2, 2)(y);")

    def test_comment_inside_configuration_is_kept(self):
        self.assertRewrite("k<<<g /* blocs */, b>>>(p);", "::simt::launch(SIMT_KERNEL(k), g /* blocs */, b)(p);")

    def test_unrecognised_launch_is_reported(self):
        _, diagnostics = rewrite_source("int x;\n<<<g, b>>>(p);", "k.cu")
        self.assertEqual(len(diagnostics), 1)
        self.assertTrue(diagnostics[0].startswith("k.cu:2: simt : "), diagnostics)


class LeftAlone(RewriteTestCase):
    def test_launch_in_strings_and_comments(self):
        self.assertUnchanged('puts("k<<<1, 1>>>(p)");\n'
                             "// k<<<1, 1>>>(p);\n"
                             "/* k<<<1, 1>>>(p);\n   sur deux lignes */\n"
                             "auto s = R\"x(k<<<1, 1>>>() )\" )x\";\n"
                             "char c = '<';\n")

    def test_shift_operators(self):
        self.assertUnchanged("int y = a << b; int z = x >> 2; std::cout << x << '\\n';")

    def test_nested_template_closing(self):
        self.assertUnchanged("std::vector<std::vector<int>> v; std::vector<std::vector<std::vector<int>>> w;")

    def test_operator_template_specialisation(self):
        self.assertUnchanged("friend std::ostream& operator<<<>(std::ostream&, const Box<T>&);")

    def test_literals_do_not_confuse_the_scanner(self):
        # Séparateurs de chiffres et apostrophes échappées ne doivent pas ouvrir de littéral.
        self.assertRewrite("int n = 1'000'000; char q = '\\''; k<<<n, 1>>>(q);",
                           "int n = 1'000'000; char q = '\\''; ::simt::launch(SIMT_KERNEL(k), n, 1)(q);")
        self.assertRewrite('auto s = u8"\\"<<<"; k<<<1, 1>>>();',
                           'auto s = u8"\\"<<<"; ::simt::launch(SIMT_KERNEL(k), 1, 1)();')

    def test_static_shared_memory(self):
        self.assertUnchanged("__shared__ float tile[32][33];\n__shared__ int count;")


class DynamicSharedMemory(RewriteTestCase):
    def test_plain(self):
        self.assertRewrite("{extern __shared__ float s[];}",
                           "{float* s = ::simt::dynamic_shared_memory<float>();}")

    def test_alignment_specifiers_are_dropped(self):
        self.assertRewrite("{extern __shared__ alignas(16) unsigned char buffer[];}",
                           "{unsigned char* buffer = ::simt::dynamic_shared_memory<unsigned char>();}")
        self.assertRewrite("{extern __shared__ __align__(sizeof(double)) float4 v [ ] ;}",
                           "{float4* v = ::simt::dynamic_shared_memory<float4>();}")
        self.assertRewrite("{alignas(alignof(float4)) extern __shared__ float s[];}",
                           "{float* s = ::simt::dynamic_shared_memory<float>();}")

    def test_template_parameter(self):
        self.assertRewrite("template <typename T>\n__global__ void k() {\n"
                           "    extern __shared__ T smem[];\n}",
                           "template <typename T>\n__global__ void k() {\n"
                           "    T* smem = ::simt::dynamic_shared_memory<T>();\n}")

    def test_declaration_over_several_lines_keeps_line_count(self):
        self.assertRewrite("{extern __shared__\n    float s[];\nint x;}",
                           "{float* s = ::simt::dynamic_shared_memory<float>();\n\nint x;}")

    def test_in_comment_left_alone(self):
        self.assertUnchanged("// extern __shared__ float s[];")

    def test_qualifiers_in_any_order(self):
        expected = "{float* s = ::simt::dynamic_shared_memory<float>();}"
        for declaration in ("extern float __shared__ s[];", "__shared__ extern float s[];",
                            "float extern __shared__ s[];", "extern __shared__ float s [];",
                            "__align__(16) __shared__ extern float s[];",
                            "extern __align__(8) float __shared__ s[];"):
            with self.subTest(declaration=declaration):
                self.assertRewrite("{" + declaration + "}", expected)
        self.assertRewrite("{extern volatile __shared__ unsigned int s[];}",
                           "{volatile unsigned int* s = ::simt::dynamic_shared_memory<volatile unsigned int>();}")

    def test_static_or_sized_shared_left_alone(self):
        self.assertUnchanged("{__shared__ float tile[32];\nstatic __shared__ int n;\nextern int outside[];}")

    def test_namespace_scope_becomes_a_lazy_thread_local(self):
        lazy = "[[maybe_unused]] static thread_local float* s = ::simt::dynamic_shared_memory<float>();"
        self.assertRewrite("extern __shared__ float s[];", lazy)
        self.assertRewrite("#include <x.h>\nnamespace a::b {\nextern __shared__ float s[];\n}",
                           "#include <x.h>\nnamespace a::b {\n" + lazy + "\n}")
        self.assertRewrite('namespace {\nextern "C" {\nextern float __shared__ s[];\n}\n}',
                           'namespace {\nextern "C" {\n' + lazy + "\n}\n}")

    def test_function_or_class_scope_is_a_local_pointer(self):
        self.assertRewrite("namespace n {\nstruct S {\n  T* get() { extern __shared__ T s[]; return s; }\n};\n}",
                           "namespace n {\nstruct S {\n  T* get() { T* s = ::simt::dynamic_shared_memory<T>(); "
                           "return s; }\n};\n}")
        self.assertRewrite("void k() {\n  if (x) {\n    extern __shared__ int s[];\n  }\n}",
                           "void k() {\n  if (x) {\n    int* s = ::simt::dynamic_shared_memory<int>();\n  }\n}")


class CooperativeLaunches(RewriteTestCase):
    def test_call_is_renamed(self):
        self.assertRewrite("cudaLaunchCooperativeKernel(k, grille, bloc, args);",
                           "::simt::launch_cooperative(k, grille, bloc, args);")
        self.assertRewrite("CHECK(cudaLaunchCooperativeKernel(k, 4, 128, args, 0, flux));",
                           "CHECK(::simt::launch_cooperative(k, 4, 128, args, 0, flux));")

    def test_launch_kernel_ex_is_renamed(self):
        self.assertRewrite("CHECK(cudaLaunchKernelEx(&config, k, x, n));",
                           "CHECK(::simt::launch_kernel_ex(&config, k, x, n));")
        self.assertUnchanged("cudaLaunchKernelExC(&config, (const void*)k, args);")

    def test_global_qualification_is_replaced(self):
        self.assertRewrite("return ::cudaLaunchCooperativeKernel(k, g, b, a);",
                           "return ::simt::launch_cooperative(k, g, b, a);")
        self.assertRewrite("case 1:cudaLaunchCooperativeKernel(k, g, b, a);",
                           "case 1: ::simt::launch_cooperative(k, g, b, a);")

    def test_arguments_over_several_lines_keep_line_count(self):
        self.assertRewrite("cudaLaunchCooperativeKernel(\n    k,\n    g, b, a);",
                           "::simt::launch_cooperative(\n    k,\n    g, b, a);")

    def test_other_identifiers_comments_and_strings_left_alone(self):
        self.assertUnchanged("cudaLaunchCooperativeKernelMultiDevice(p, 2);\n"
                             "my_cudaLaunchCooperativeKernel(k);\n"
                             "outil.cudaLaunchCooperativeKernel(k);\n"
                             "outil->cudaLaunchCooperativeKernel(k);\n"
                             "maison::cudaLaunchCooperativeKernel(k);\n"
                             "// cudaLaunchCooperativeKernel(k, g, b, a);\n"
                             'puts("cudaLaunchCooperativeKernel");\n')

    def test_kernel_cast_to_void_pointer_gets_its_type_back(self):
        self.assertRewrite("cudaLaunchCooperativeKernel((void*)k, g, b, args, smem, flux);",
                           "::simt::launch_cooperative(SIMT_KERNEL(k), g, b, args, smem, flux);")
        self.assertRewrite("cudaLaunchCooperativeKernel( (void *) ns::k<float, 4>, g, b, a);",
                           "::simt::launch_cooperative( SIMT_KERNEL(ns::k<float, 4>), g, b, a);")
        self.assertRewrite("cudaLaunchCooperativeKernel((const void*)k, g, b, a);",
                           "::simt::launch_cooperative(SIMT_KERNEL(k), g, b, a);")
        self.assertRewrite("cudaLaunchCooperativeKernel(reinterpret_cast<void*>(k<T>), g, b, a);",
                           "::simt::launch_cooperative(SIMT_KERNEL(k<T>), g, b, a);")
        self.assertRewrite("cudaLaunchCooperativeKernel(\n    (void*)k,\n    g, b, a);",
                           "::simt::launch_cooperative(\n    SIMT_KERNEL(k),\n    g, b, a);")

    def test_alongside_triple_chevron_launch(self):
        self.assertRewrite("k<<<1, 32>>>(p);\ncudaLaunchCooperativeKernel(k, 1, 32, a);",
                           "::simt::launch(SIMT_KERNEL(k), 1, 32)(p);\n::simt::launch_cooperative(k, 1, 32, a);")


class LineDirective(unittest.TestCase):
    def test_directive_names_absolute_original_path(self):
        output, _ = rewrite_source("int x;\n", "dossier/k.cu")
        expected = os.path.abspath("dossier/k.cu")
        self.assertEqual(output, f'#line 1 "{expected}"\nint x;\n')

    def test_line_count_is_source_plus_directive(self):
        source = "a<<<\n1,\n2>>>(x);\nextern __shared__\nint s[];\n"
        output, _ = rewrite_source(source, "k.cu")
        self.assertEqual(output.count("\n"), source.count("\n") + 1)

    def test_crlf_is_preserved(self):
        output, _ = rewrite_source("k<<<1, 1>>>();\r\nint x;\r\n", "k.cu")
        self.assertTrue(output.startswith('#line 1 "'))
        self.assertTrue(output.endswith('"\r\n::simt::launch(SIMT_KERNEL(k), 1, 1)();\r\nint x;\r\n'))


class ClusterDims(unittest.TestCase):
    """__cluster_dims__ : vérification au début du corps, inscription après le noyau."""

    def test_kernel_with_body_is_checked_and_registered(self):
        source = ("__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128) k(int* p) {\n"
                  "    p[0] = 1;\n"
                  "}\n")
        output, diagnostics = rewrite_source(source, "k.cu")
        self.assertEqual(diagnostics, [])
        lines = output.splitlines()[1:]
        self.assertEqual(len(lines), 3)
        self.assertTrue(lines[0].endswith("k(int* p) { ::simt::detail::check_cluster_dims(2, 1, 1);"))
        self.assertEqual(lines[2], "} [[maybe_unused]] static const int simt_cluster_dims_1 = "
                                   "SIMT_CLUSTER_DIMS(k, 2, 1, 1);")

    def test_missing_dimensions_are_one_and_empty_means_set_at_launch(self):
        output, _ = rewrite_source("__cluster_dims__(4) __global__ void k() {}\n"
                                   "__global__ void __cluster_dims__() e() {}\n", "k.cu")
        self.assertIn("k() { ::simt::detail::check_cluster_dims(4, 1, 1);}", output)
        self.assertIn("SIMT_CLUSTER_DIMS(k, 4);", output)
        self.assertIn("e() { ::simt::detail::check_cluster_dims(0, 0, 0);}\n", output)
        self.assertNotIn("SIMT_CLUSTER_DIMS(e", output)

    def test_template_kernel_is_only_checked(self):
        source = "template <int N>\n__global__ void __cluster_dims__(N, 1, 1) k(int* p)\n{\n}\n"
        output, _ = rewrite_source(source, "k.cu")
        self.assertIn("{ ::simt::detail::check_cluster_dims(N, 1, 1);", output)
        self.assertNotIn("SIMT_CLUSTER_DIMS", output)
        self.assertEqual(output.count("\n"), source.count("\n") + 1)

    def test_declaration_is_registered_and_macros_are_left_alone(self):
        source = ("#define DIMS(x) __cluster_dims__(x, 1, 1)\n"
                  "__global__ void __cluster_dims__(2, 2) k(float* a, int n);\n")
        output, _ = rewrite_source(source, "k.cu")
        self.assertIn("#define DIMS(x) __cluster_dims__(x, 1, 1)\n", output)
        self.assertIn("int n); [[maybe_unused]] static const int simt_cluster_dims_2 = "
                      "SIMT_CLUSTER_DIMS(k, 2, 2);", output)

    def test_macro_defined_as_the_attribute_is_followed(self):
        # Forme d'un exemple compilé aussi pour sm_80, où nvcc refuse __cluster_dims__.
        source = ("#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900\n"
                  "#define DIMS(x) __cluster_dims__(x, 1, 1)\n"
                  "#else\n"
                  "#define DIMS(x)\n"
                  "#endif\n"
                  "__global__ void DIMS(kSize) __launch_bounds__(128) k(int* p) {\n"
                  "}\n")
        output, diagnostics = rewrite_source(source, "k.cu")
        self.assertEqual(diagnostics, [])
        self.assertIn("k(int* p) { ::simt::detail::check_cluster_dims((kSize), 1, 1);\n", output)
        self.assertIn("} [[maybe_unused]] static const int simt_cluster_dims_6 = "
                      "SIMT_CLUSTER_DIMS(k, (kSize), 1, 1);", output)

    def test_malformed_attribute_is_refused_with_its_line(self):
        _, diagnostics = rewrite_source("int x;\n__global__ void __cluster_dims__(1, 2, 3, 4) k() {}\n", "k.cu")
        self.assertEqual(diagnostics, ["k.cu:2: simt : __cluster_dims__ prend une, deux ou trois dimensions"])


class CudaArch(unittest.TestCase):
    """__CUDA_ARCH__ vaut 900 dans le corps des fonctions de périphérique et dans les conditions
    des régions qui ne déclarent que du code de périphérique ; il n'est défini nulle part ailleurs
    (code de l'hôte, __host__ __device__, régions qui ne déclarent rien ou mêlent les deux)."""

    SOURCE = "\n".join([
        "#define DEVICE __device__ __forceinline__",                 # 1
        "#define HOST_DEVICE __host__ __device__",                   # 2
        "__device__ int table[] = {__CUDA_ARCH__};",                  # 3 : variable, hors corps
        "#if defined(__CUDA_ARCH__)",                                # 4 : portée du fichier
        "#endif",                                                    # 5
        "__global__ void __launch_bounds__(128) k(int* p) {",        # 6
        "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800",        # 7
        "    p[0] = __CUDA_ARCH__;",                                 # 8
        "#elif !defined __CUDA_ARCH_FEAT_SM90_ALL",                  # 9
        "#endif",                                                    # 10
        "    auto f = [] __device__ (int x) { return x; };",         # 11
        "}",                                                         # 12
        "__host__ __device__ int both() {",                          # 13
        "#ifdef __CUDA_ARCH__",                                      # 14
        "    return 1;",                                             # 15
        "#endif",                                                    # 16
        "}",                                                         # 17
        "HOST_DEVICE int both_by_macro() { return __CUDA_ARCH__; }",  # 18
        "DEVICE int inner() {",                                      # 19
        "#ifndef __CUDA_ARCH__",                                     # 20
        "#endif",                                                    # 21
        "    return 0; }",                                           # 22
        "__device__ int declared(int);",                             # 23
        "int host() { return __CUDA_ARCH__; }",                      # 24
        "",
    ])

    def test_defined_in_device_bodies_only(self):
        output, diagnostics = rewrite_source(self.SOURCE, "k.cu")
        self.assertEqual(diagnostics, [])
        lines = output.splitlines()[1:]  # après la directive #line
        self.assertEqual(len(lines), len(self.SOURCE.splitlines()))  # aucune ligne ajoutée
        original = self.SOURCE.splitlines()
        for unchanged in (3, 4, 13, 14, 18, 23, 24):
            self.assertEqual(lines[unchanged - 1], original[unchanged - 1], unchanged)
        self.assertEqual(lines[6], "#if 1 && 900 >= 800")
        self.assertEqual(lines[7], "    p[0] = 900;")
        self.assertEqual(lines[8], "#elif !1")
        self.assertEqual(lines[19], "#if 0")

    def test_region_that_declares_only_device_code_sees_the_device_pass(self):
        # La forme de l'échantillon « reduction » : une spécialisation de fonction de
        # périphérique, dans un espace de noms, une classe aux seuls membres de périphérique.
        source = "\n".join([
            "#define DEVICE __device__ __forceinline__",                        # 1
            "template <class T> __device__ T sum(unsigned m, T x);",            # 2
            "namespace n {",                                                    # 3
            "#if __CUDA_ARCH__ >= 800  // sm_80 et après",                      # 4
            "template <> DEVICE int sum<int>(unsigned m, int x) {",             # 5
            "    return __reduce_add_sync(m, x); }",                            # 6
            "struct Tile { __device__ int load() const; };",                    # 7
            "__constant__ float table[4] = {1, 2, 3, 4};",                      # 8
            "#elif defined(__CUDA_ARCH__)",                                     # 9
            "#else",                                                            # 10
            "#endif",                                                           # 11
            "}",                                                                # 12
            "#ifndef __CUDA_ARCH__",                                            # 13
            "__global__ void fallback(int* p) {}",                              # 14
            "#endif",                                                           # 15
            "",
        ])
        warnings = []
        output, diagnostics = rewrite_source(source, "k.cu", warnings)
        self.assertEqual((diagnostics, warnings), ([], []))
        lines = output.splitlines()[1:]
        self.assertEqual(len(lines), len(source.splitlines()))  # aucune ligne ajoutée
        self.assertEqual(lines[3], "#if 900 >= 800  // sm_80 et après")
        self.assertEqual(lines[8], "#elif 1")
        self.assertEqual(lines[12], "#if 0")

    def test_region_without_declarations_keeps_the_host_pass(self):
        # Macros, #error, #include : rien ne dit pour quel côté ; la vue de l'hôte, sans bruit.
        source = ("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700\n#error \"sm_70 au moins\"\n#endif\n"
                  "#ifdef __CUDA_ARCH__\n#define HD __host__ __device__\n#include \"k.cuh\"\n#endif\n")
        warnings = []
        output, _ = rewrite_source(source, "k.cu", warnings)
        self.assertEqual(warnings, [])
        self.assertTrue(output.endswith(source))

    def test_region_that_mixes_host_and_device_warns_and_keeps_the_host_pass(self):
        source = "\n".join([
            "int before;",                                  # 1
            "#if __CUDA_ARCH__ >= 800",                     # 2
            "__device__ int f() { return 1; }",             # 3
            "#else",                                        # 4
            "",                                             # 5
            "__host__ __device__ int f() { return 0; }",    # 6
            "#endif",                                       # 7
            "#ifdef __CUDA_ARCH__",                         # 8
            "struct Mixed { __device__ int a(); int b; };",  # 9
            "#endif",                                       # 10
            "",
        ])
        warnings = []
        output, diagnostics = rewrite_source(source, "k.cu", warnings)
        self.assertEqual(diagnostics, [])
        self.assertTrue(output.endswith(source))
        self.assertEqual(len(warnings), 2)
        self.assertEqual(warnings[0],
                         "k.cu:2: simt : avertissement : la région « #if __CUDA_ARCH__ >= 800 » déclare du "
                         "code de périphérique (ligne 3) et de l'hôte (ligne 6) ; simt l'évalue comme la "
                         "passe hôte de nvcc (__CUDA_ARCH__ indéfini), pas comme la passe périphérique "
                         "(900) : séparer les deux pour que le code de périphérique voie __CUDA_ARCH__")
        self.assertTrue(warnings[1].startswith("k.cu:8: simt : avertissement : la région « #ifdef __CUDA_ARCH__ » "
                                               "déclare du code de périphérique (ligne 9) et de l'hôte (ligne 9)"))

    def test_warning_reaches_stderr_and_the_file_is_written(self):
        with tempfile.TemporaryDirectory() as tmp:
            pathlib.Path(tmp, "k.cu").write_text("#ifdef __CUDA_ARCH__\n__device__ int f();\nint g();\n#endif\n",
                                                 encoding="utf-8")
            result = run_cli("k.cu", "sortie.cu", cwd=tmp)
            self.assertEqual(result.returncode, 0)
            self.assertTrue(pathlib.Path(tmp, "sortie.cu").exists())
        self.assertIn("k.cu:1: simt : avertissement : la région « #ifdef __CUDA_ARCH__ »", result.stderr)

    def test_macros_that_test_it_are_left_alone(self):
        # Une macro est évaluée là où elle est développée : simt ne la suit pas (documenté).
        source = "#define ARCH __CUDA_ARCH__\n__global__ void k(int* p) { p[0] = ARCH; }\n"
        output, _ = rewrite_source(source, "k.cu")
        self.assertIn("#define ARCH __CUDA_ARCH__\n", output)
        self.assertIn("p[0] = ARCH;", output)


class UnsupportedFeatures(unittest.TestCase):
    SOURCE = "\n".join([
        "#include <mma.h>",                              # 1 : émulé (shim/mma.h)
        "#include <cuda/ptx>",                           # 2
        "// asm(\"nop\"); wgmma dans un commentaire",    # 3 : ignoré
        "__global__ void __cluster_dims__(2, 1, 1) k() {",  # 4
        '    asm volatile("cp.async.bulk.tensor.2d");',  # 5 : asm
        "    __asm__(\"nop\");",                         # 6
        "    auto c = cg::this_cluster();",              # 7
        '    asm("wgmma.fence.sync.aligned;");',         # 8 : émulé
        "    cuda::device::memcpy_async_tx(d, s, n, b);",  # 9
        "    tcgen05_alloc();",                          # 10
        "    wmma::fragment<A> f;",                      # 11 : émulé
        "}",
    ])

    def test_each_occurrence_with_file_and_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            source = pathlib.Path(tmp, "k.cuh")
            source.write_text(self.SOURCE, encoding="utf-8")
            result = run_cli("k.cuh", "sortie.cuh", cwd=tmp)
            self.assertEqual(result.returncode, 1)
            self.assertFalse(pathlib.Path(tmp, "sortie.cuh").exists())
        lines = result.stderr.splitlines()
        reported = [int(line.split(":")[1]) for line in lines]
        self.assertEqual(reported, [2, 5, 6, 9, 10])  # WMMA (1, 11), clusters (4, 7), wgmma (8) émulés
        # Le PTX en ligne est traduit (paquet ptx/) : seules ses instructions inconnues sont refusées.
        ptx = [line for line in lines if "PTX" in line and "<cuda/ptx>" not in line]
        for line in lines:
            if line not in ptx:
                self.assertRegex(line, r"^k\.cuh:\d+: simt : .+ n'est pas émulée? par le processeur ; "
                                       r"cet exemple est réservé au GPU \(BACKENDS gpu\)\.$")
        self.assertEqual([line.split(":")[1] for line in ptx], ["5", "6"])  # wgmma.fence est émulé
        self.assertIn("k.cuh:5: simt : instruction PTX « cp.async.bulk.tensor.2d » non émulée par le processeur ; "
                      "cet exemple est réservé au GPU (BACKENDS gpu)", ptx[0])
        self.assertIn("k.cuh:6: simt : instruction PTX « nop » non émulée", ptx[1])

    def test_code_hidden_from_the_emulator_is_not_reported(self):
        source = "\n".join([
            "#ifndef SIMT_EMULATOR",           # 1
            '#include "wgmma.cuh"',            # 2 : caché
            "#if __CUDA_ARCH__ >= 900",        # 3
            "memcpy_async_tx(m);",             # 4 : caché (imbriqué)
            "#endif",                          # 5
            "#else",                           # 6
            "memcpy_async_tx(visible);",       # 7
            "#endif",                          # 8
            "#ifdef SIMT_EMULATOR",            # 9
            "int y;",                          # 10
            "#else",                           # 11
            'asm("nop");',                     # 12 : caché
            "#endif",                          # 13
            "#if !defined(SIMT_EMULATOR)",     # 14
            "tcgen05_alloc();",                # 15 : caché
            "#endif",                          # 16
            "memcpy_async_tx(n);",             # 17
        ])
        _, diagnostics = rewrite_source(source, "k.cu")
        self.assertEqual([int(d.split(":")[1]) for d in diagnostics], [7, 17])

    def test_wmma_is_emulated(self):
        # <mma.h> vient de simt (include/shim/mma.h) : ni l'inclusion ni wmma:: ne sont refusés.
        source = "#include <mma.h>\nusing namespace nvcuda;\nwmma::fragment<wmma::accumulator, 16, 16, 16, float> f;\n"
        output, diagnostics = rewrite_source(source, "k.cu")
        self.assertEqual(diagnostics, [])
        self.assertTrue(output.endswith(source))

    def test_feature_names_in_strings_only_are_ignored(self):
        # Le mot-clé asm n'a de sens que dans le code ; cuda/barrier seul est accepté.
        output, diagnostics = rewrite_source('#include <cuda/barrier>\nputs("asm(");\n', "k.cu")
        self.assertEqual(diagnostics, [])


class CommandLine(unittest.TestCase):
    def test_single_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            source, output = pathlib.Path(tmp, "k.cu"), pathlib.Path(tmp, "sous/k.cu")
            source.write_text("k<<<1, 1>>>();\n", encoding="utf-8")
            result = run_cli(source, output)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(output.read_text(encoding="utf-8"),
                             f'#line 1 "{source}"\n::simt::launch(SIMT_KERNEL(k), 1, 1)();\n')

    def test_refuses_to_overwrite_input(self):
        with tempfile.TemporaryDirectory() as tmp:
            source = pathlib.Path(tmp, "k.cu")
            source.write_text("int x;\n", encoding="utf-8")
            self.assertEqual(run_cli(source, source).returncode, 2)
            self.assertEqual(source.read_text(encoding="utf-8"), "int x;\n")

    def test_folder_is_mirrored_and_unchanged_outputs_are_not_rewritten(self):
        with tempfile.TemporaryDirectory() as tmp:
            source_dir, destination_dir = pathlib.Path(tmp, "src"), pathlib.Path(tmp, "dst")
            files = {"a.cu": "k<<<1, 1>>>();\n", "inc/b.cuh": "extern __shared__ int s[];\n",
                     "inc/c.h": "int c;\n", "d.hpp": "", "e.cpp": "int e;\n",
                     "notes.md": "k<<<1, 1>>>\n"}
            for name, text in files.items():
                path = source_dir / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")

            self.assertEqual(run_cli("--dossier", source_dir, destination_dir).returncode, 0)
            mirrored = sorted(str(p.relative_to(destination_dir)) for p in destination_dir.rglob("*")
                              if p.is_file())
            self.assertEqual(mirrored, ["a.cu", "d.hpp", "e.cpp", "inc/b.cuh", "inc/c.h"])
            self.assertIn("::simt::launch(SIMT_KERNEL(k), 1, 1)();", (destination_dir / "a.cu").read_text())
            self.assertIn("int* s = ::simt::dynamic_shared_memory<int>();",
                          (destination_dir / "inc/b.cuh").read_text())

            # Les sorties inchangées gardent leur date ; seule celle dont la source change est récrite.
            past = time.time() - 1000
            for path in destination_dir.rglob("*.*"):
                os.utime(path, (past, past))
            (source_dir / "e.cpp").write_text("int e = 2;\n", encoding="utf-8")
            self.assertEqual(run_cli("--dossier", source_dir, destination_dir).returncode, 0)
            for path in destination_dir.rglob("*.*"):
                changed = path.stat().st_mtime != past
                self.assertEqual(changed, path.name == "e.cpp", path)

    def test_folder_reports_unsupported_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            source_dir = pathlib.Path(tmp, "src")
            source_dir.mkdir()
            (source_dir / "ok.cu").write_text("int x;\n", encoding="utf-8")
            (source_dir / "ptx.cu").write_text("\nasm(\"nop\");\n", encoding="utf-8")
            result = run_cli("--dossier", "src", "dst", cwd=tmp)
            self.assertEqual(result.returncode, 1)
            self.assertIn(f"{os.path.join('src', 'ptx.cu')}:2: simt : l'assembleur au niveau du fichier", result.stderr)
            self.assertTrue(pathlib.Path(tmp, "dst/ok.cu").is_file())
            self.assertFalse(pathlib.Path(tmp, "dst/ptx.cu").exists())


class RepositoryExamples(unittest.TestCase):
    """Les vrais exemples du dépôt se réécrivent sans diagnostic ni décalage de ligne."""

    @staticmethod
    def gpu_only_kernel_source(path: pathlib.Path) -> bool:
        """Source d'un exemple réservé au GPU (BACKENDS sans cpu, ou étape GEMM GPU_ONLY) : la
        construction ne la réécrit pas, elle peut contenir ce que l'émulateur refuse (PTX en
        ligne, tcgen05…). Seuls test.cu et les .hpp d'un exemple HOST_TESTS_CPU sont réécrits,
        pour les tests de sa logique hôte. Un dossier nommé d'après une architecture
        (examples/common/sm100/) ne contient que du code de cette architecture, jamais réécrit."""
        if any(re.fullmatch(r"sm\d+a?", folder) for folder in path.parent.parts):
            return True
        example = next((folder for folder in path.parents
                        if (folder / "CMakeLists.txt").is_file()
                        and re.fullmatch(r"\d\d-[a-z0-9-]+", folder.name)), None)
        if example is None:
            return False
        cmake = (example / "CMakeLists.txt").read_text(encoding="utf-8")
        backends = re.search(r"BACKENDS([^\n]*)", cmake)
        gpu_only = ((backends is not None and "cpu" not in backends.group(1).split())
                    or re.search(r"\bGPU_ONLY\b", cmake) is not None)
        if not gpu_only:
            return False
        host_tests = re.search(r"\bHOST_TESTS_CPU\b", cmake) is not None
        rewritten = path.parent == example and (path.name == "test.cu" or path.suffix == ".hpp")
        return not (host_tests and rewritten)

    def test_all_examples(self):
        sources = [p for p in (REPOSITORY / "examples").rglob("*") if p.suffix in SOURCE_SUFFIXES]
        self.assertTrue(sources)
        for path in sources:
            with self.subTest(path=str(path.relative_to(REPOSITORY))):
                text = path.read_text(encoding="utf-8")
                output, diagnostics = rewrite_source(text, str(path))
                if self.gpu_only_kernel_source(path):
                    continue
                self.assertEqual(diagnostics, [])
                self.assertEqual(output.count("\n"), text.count("\n") + 1)
                # Plus aucun <<< dans le code (ceux des commentaires et chaînes restent).
                self.assertNotIn("<<<", mask_source(output)[0])

    def test_grid_stride_launch(self):
        path = REPOSITORY / "examples/ressources/01-boucle-grid-stride/boucle-grid-stride.cuh"
        if not path.is_file():
            self.skipTest("exemple absent")
        text = path.read_text(encoding="utf-8")
        output = rewrite(text, str(path))
        self.assertIn("    ::simt::launch(SIMT_KERNEL(saxpy_grid_stride), config.blocks, config.threads_per_block, "
                      "0, stream)(n, a, x, y);\n", output)
        changed = [(old, new) for old, new in zip(text.splitlines(), output.splitlines()) if old != new]
        self.assertEqual(len(changed), 1)


if __name__ == "__main__":
    unittest.main()
