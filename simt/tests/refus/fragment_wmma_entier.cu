// Un fragment WMMA d'entiers 8 bits, que simt n'émule pas : la compilation doit échouer avec
// un message en français qui dit ce qui est émulé (static_assert de simt/wmma.hpp), pas
// avec une erreur de modèle incomplet. Test : simt.simt-nvcc-refus.cpu.
#include <mma.h>

__global__ void integer_fragment(const signed char* a) {
    nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, signed char, nvcuda::wmma::row_major> fragment;
    nvcuda::wmma::load_matrix_sync(fragment, a, 16);
}
