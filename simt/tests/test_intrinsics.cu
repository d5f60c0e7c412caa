// Intrinsèques de la liste du guide de programmation, appelées depuis un noyau : arrondis
// dirigés au bit près, conversions saturantes, opérations entières et sur les bits ; min et
// max sans surcharge (umin, llmax…) ; atomiques à portée et fonctions __nv_atomic_*.
#include <gtest/gtest.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <cfenv>
#include <cstring>

namespace {

struct FloatResults {
    float add[4], sub[4], mul[4], div[4], rcp[4], sqrt[4], fma[4], fma_ieee[4], to_float[4];
    double dadd[4], ddiv[4], dsqrt[4], dfma[4], ll_to_double[4];
    float saturate_nan, saturate_big, log10, sine, cosine;
};

__global__ void rounded_operations(FloatResults* r) {
    const float third = 1.0f / 3.0f;
    r->add[0] = __fadd_rn(1.0f, 1e-8f);  r->add[1] = __fadd_rd(1.0f, 1e-8f);
    r->add[2] = __fadd_ru(1.0f, 1e-8f);  r->add[3] = __fadd_rz(-1.0f, -1e-8f);
    r->sub[0] = __fsub_rn(1.0f, 1e-8f);  r->sub[1] = __fsub_rd(1.0f, 1e-8f);
    r->sub[2] = __fsub_ru(1.0f, 1e-8f);  r->sub[3] = __fsub_rz(1.0f, 1e-8f);
    r->mul[0] = __fmul_rn(third, 3.0f);  r->mul[1] = __fmul_rd(third, 3.0f);
    r->mul[2] = __fmul_ru(third, 3.0f);  r->mul[3] = __fmul_rz(third, 3.0f);
    r->div[0] = __fdiv_rn(1.0f, 3.0f);   r->div[1] = __fdiv_rd(1.0f, 3.0f);
    r->div[2] = __fdiv_ru(1.0f, 3.0f);   r->div[3] = __fdiv_rz(-1.0f, 3.0f);
    r->rcp[0] = __frcp_rn(3.0f);         r->rcp[1] = __frcp_rd(3.0f);
    r->rcp[2] = __frcp_ru(3.0f);         r->rcp[3] = __frcp_rz(3.0f);
    r->sqrt[0] = __fsqrt_rn(2.0f);       r->sqrt[1] = __fsqrt_rd(2.0f);
    r->sqrt[2] = __fsqrt_ru(2.0f);       r->sqrt[3] = __fsqrt_rz(2.0f);
    r->fma[0] = __fmaf_rn(third, 3.0f, -1.0f);  r->fma[1] = __fmaf_rd(1.0f, 1.0f, 1e-8f);
    r->fma[2] = __fmaf_ru(1.0f, 1.0f, 1e-8f);   r->fma[3] = __fmaf_rz(1.0f, 1.0f, 1e-8f);
    r->fma_ieee[0] = __fmaf_ieee_rn(1.0f, 1.0f, 1e-8f);  r->fma_ieee[1] = __fmaf_ieee_rd(1.0f, 1.0f, 1e-8f);
    r->fma_ieee[2] = __fmaf_ieee_ru(1.0f, 1.0f, 1e-8f);  r->fma_ieee[3] = __fmaf_ieee_rz(1.0f, 1.0f, 1e-8f);
    r->to_float[0] = __int2float_rn(16777217);  r->to_float[1] = __int2float_rd(16777217);
    r->to_float[2] = __int2float_ru(16777217);  r->to_float[3] = __double2float_rz(1.0 / 3.0);
    r->dadd[0] = __dadd_rn(1.0, 1e-20);  r->dadd[1] = __dadd_rd(1.0, 1e-20);
    r->dadd[2] = __dadd_ru(1.0, 1e-20);  r->dadd[3] = __dsub_rz(1.0, 1e-20);
    r->ddiv[0] = __ddiv_rn(1.0, 3.0);    r->ddiv[1] = __ddiv_rd(1.0, 3.0);
    r->ddiv[2] = __ddiv_ru(1.0, 3.0);    r->ddiv[3] = __dmul_rz(1.0 / 3.0, 3.0);
    r->dsqrt[0] = __dsqrt_rn(2.0);       r->dsqrt[1] = __dsqrt_rd(2.0);
    r->dsqrt[2] = __dsqrt_ru(2.0);       r->dsqrt[3] = __drcp_rz(3.0);
    r->dfma[0] = __fma_rn(1.0, 1.0, 1e-20);  r->dfma[1] = __fma_rd(1.0, 1.0, 1e-20);
    r->dfma[2] = __fma_ru(1.0, 1.0, 1e-20);  r->dfma[3] = __fma_rz(-1.0, 1.0, -1e-20);
    r->ll_to_double[0] = __ll2double_rn((1LL << 53) + 1);  r->ll_to_double[1] = __ll2double_rd((1LL << 53) + 1);
    r->ll_to_double[2] = __ll2double_ru((1LL << 53) + 1);  r->ll_to_double[3] = __ull2double_rz((1ULL << 63) + 1);
    r->saturate_nan = __saturatef(NAN);
    r->saturate_big = __saturatef(7.0f);
    r->log10 = __log10f(1000.0f);
    __sincosf(0.0f, &r->sine, &r->cosine);
}

struct IntegerResults {
    int to_int[12];
    long long to_ll[4];
    unsigned to_uint[4];
    unsigned long long to_ull[2];
    unsigned bits[12];
    long long wide[4];
    int arithmetic[10];
    double pieces;
    int hi, lo;
};

__global__ void integer_operations(IntegerResults* r) {
    r->to_int[0] = __float2int_rn(2.5f);   r->to_int[1] = __float2int_rn(3.5f);
    r->to_int[2] = __float2int_rd(-1.5f);  r->to_int[3] = __float2int_ru(-1.5f);
    r->to_int[4] = __float2int_rz(-1.5f);  r->to_int[5] = __float2int_rn(3e9f);   // sature
    r->to_int[6] = __float2int_rn(-3e9f);  r->to_int[7] = __float2int_rn(NAN);   // 0
    r->to_int[8] = __double2int_rd(-0.5);  r->to_int[9] = __double2int_ru(0.25);
    r->to_int[10] = __double2int_rz(-7.9); r->to_int[11] = __double2int_rn(-2.5);
    r->to_ll[0] = __float2ll_rd(-2.5f);    r->to_ll[1] = __double2ll_ru(1e30);   // sature
    r->to_ll[2] = __float2ll_rz(1e10f);    r->to_ll[3] = __double2ll_rn(-1e19);  // sature
    r->to_uint[0] = __float2uint_rn(-5.0f);  r->to_uint[1] = __float2uint_ru(1.2f);
    r->to_uint[2] = __double2uint_rd(5e9);   r->to_uint[3] = __float2uint_rz(4294967040.0f);
    r->to_ull[0] = __float2ull_rn(-1.0f);    r->to_ull[1] = __double2ull_rz(1e19);
    r->bits[0] = __byte_perm(0x33221100u, 0x77665544u, 0x5410u);
    r->bits[1] = __byte_perm(0x33221100u, 0x77665544u, 0x0123u);
    r->bits[2] = __funnelshift_l(0x80000000u, 0x00000001u, 1u);
    r->bits[3] = __funnelshift_l(0x80000000u, 0x00000001u, 33u);   // modulo 32
    r->bits[4] = __funnelshift_lc(0x80000000u, 0x00000001u, 40u);  // borné à 32 : lo
    r->bits[5] = __funnelshift_r(0x00000001u, 0x00000003u, 1u);
    r->bits[6] = __funnelshift_rc(0x00000001u, 0x00000003u, 40u);  // borné à 32 : hi
    r->bits[7] = __umulhi(0xffffffffu, 0xffffffffu);
    r->bits[8] = __usad(3u, 10u, 5u);
    r->bits[9] = __sad(-4, 6, 1u);
    r->bits[10] = __uhadd(0xffffffffu, 0xffffffffu);
    r->bits[11] = __urhadd(2u, 3u);
    r->wide[0] = static_cast<long long>(__brevll(1ULL));
    r->wide[1] = __mul64hi(-1LL, 1LL << 62);
    r->wide[2] = static_cast<long long>(__umul64hi(1ULL << 63, 4ULL));
    r->wide[3] = llmax(-5LL, llmin(3LL, 9LL));
    r->arithmetic[0] = __mul24(-3, 0x7000005);  // les 24 bits de poids faible : 5
    r->arithmetic[1] = __hadd(INT_MAX, INT_MAX);
    r->arithmetic[2] = __rhadd(-3, 0);
    r->arithmetic[3] = __dp4a(0x01020304, 0x01010101, 10);
    r->arithmetic[4] = __dp4a(static_cast<int>(0xff000001u), 0x02000002, 0);  // -1·2 + 1·2
    r->arithmetic[5] = __dp2a_lo(0x00030002, 0x00000504, 1);                 // 2·4 + 3·5 + 1
    r->arithmetic[6] = __dp2a_hi(0x00030002, 0x05040000, 1);
    r->arithmetic[7] = static_cast<int>(umin(3u, 7u) + umax(3u, 7u));
    r->arithmetic[8] = static_cast<int>(ullmin(1ULL, 2ULL) + ullmax(1ULL, 2ULL));
    r->arithmetic[9] = static_cast<int>(__dp4a(0xff000001u, 0x02000002u, 0u));  // 255·2 + 1·2
    r->pieces = __hiloint2double(__double2hiint(1.5), __double2loint(1.5));
    r->hi = __double2hiint(-2.0);
    r->lo = __double2loint(-2.0);
}

struct AtomicResults {
    int block_sum, system_sum, nv_sum;
    unsigned long long cas64;
    int nv_min, nv_max, nv_exchanged, nv_loaded, nv_cas_ok, nv_cas_fail;
    unsigned nv_bits;
};

__global__ void scoped_atomics(AtomicResults* r) {
    atomicAdd_block(&r->block_sum, 1);
    atomicAdd_system(&r->system_sum, 2);
    atomicMax_block(&r->nv_max, int(threadIdx.x));
    atomicMin_system(&r->nv_min, -int(threadIdx.x));
    __nv_atomic_fetch_add(&r->nv_sum, 3, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_or(&r->nv_bits, 1u << (threadIdx.x % 32), __NV_ATOMIC_RELEASE);
    __syncthreads();
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        unsigned long long expected = 0x100000000ULL;
        atomicCAS_system(&r->cas64, expected, 0x200000000ULL);   // 64 bits
        atomicCAS_block(&r->cas64, 0x100000000ULL, 7ULL);        // comparaison fausse : inchangé
        r->nv_exchanged = __nv_atomic_exchange_n(&r->nv_loaded, 41, __NV_ATOMIC_ACQ_REL);
        int previous = 0, value = 42;
        __nv_atomic_exchange(&r->nv_loaded, &value, &previous, __NV_ATOMIC_SEQ_CST);
        int expected_value = 42;
        r->nv_cas_ok = __nv_atomic_compare_exchange_n(&r->nv_loaded, &expected_value, 43, false,
                                                      __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_ACQUIRE);
        int wrong = 0, desired = 99;
        r->nv_cas_fail = __nv_atomic_compare_exchange(&r->nv_loaded, &wrong, &desired, false,
                                                      __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_RELAXED,
                                                      __NV_THREAD_SCOPE_BLOCK);
        __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM);
        __nv_atomic_store_n(&r->nv_cas_fail, r->nv_cas_fail * 10 + wrong, __NV_ATOMIC_RELEASE);
        int loaded = 0;
        __nv_atomic_load(&r->nv_loaded, &loaded, __NV_ATOMIC_ACQUIRE);
        __nv_atomic_store(&r->nv_loaded, &loaded, __NV_ATOMIC_RELAXED);
        r->nv_loaded = __nv_atomic_load_n(&r->nv_loaded, __NV_ATOMIC_ACQUIRE) + previous * 100;
    }
}

template <typename T>
T* device_copy_of(const T& value) {
    T* device = nullptr;
    EXPECT_EQ(cudaMalloc(&device, sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(device, &value, sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    return device;
}

template <typename T>
T back_and_free(T* device) {
    T value{};
    EXPECT_EQ(cudaMemcpy(&value, device, sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(cudaFree(device), cudaSuccess);
    return value;
}

}  // namespace

TEST(Intrinsics, DirectedRoundingIsExactToTheBit) {
    FloatResults* device = device_copy_of(FloatResults{});
    rounded_operations<<<1, 1>>>(device);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const FloatResults r = back_and_free(device);
    const float up = std::nextafter(1.0f, 2.0f), down = std::nextafter(1.0f, 0.0f);
    EXPECT_EQ(r.add[0], 1.0f);  EXPECT_EQ(r.add[1], 1.0f);  EXPECT_EQ(r.add[2], up);  EXPECT_EQ(r.add[3], -1.0f);
    EXPECT_EQ(r.sub[0], 1.0f);  EXPECT_EQ(r.sub[1], down);  EXPECT_EQ(r.sub[2], 1.0f);  EXPECT_EQ(r.sub[3], down);
    EXPECT_EQ(r.mul[0], 1.0f);  EXPECT_EQ(r.mul[1], 1.0f);  EXPECT_EQ(r.mul[2], up);   EXPECT_EQ(r.mul[3], 1.0f);
    // 1/3 = 0,0101… en binaire : le bit qui suit la mantisse vaut 1, l'arrondi au plus près
    // se fait donc vers le haut, et l'arrondi vers le bas est un ulp en dessous.
    EXPECT_EQ(r.div[2], r.div[0]);
    EXPECT_EQ(r.div[1], std::nextafter(r.div[0], 0.0f));
    EXPECT_EQ(r.div[3], -r.div[1]);
    EXPECT_EQ(r.rcp[0], r.div[0]);  EXPECT_EQ(r.rcp[1], r.div[1]);  EXPECT_EQ(r.rcp[2], r.div[2]);
    EXPECT_EQ(r.rcp[3], r.div[1]);
    EXPECT_EQ(r.sqrt[0], std::sqrt(2.0f));
    EXPECT_EQ(r.sqrt[2], std::nextafter(r.sqrt[1], 2.0f));  // encadrent √2 à un ulp près
    EXPECT_EQ(r.sqrt[3], r.sqrt[1]);
    EXPECT_EQ(r.fma[0], std::fma(1.0f / 3.0f, 3.0f, -1.0f));
    EXPECT_NE(r.fma[0], 0.0f);  // le FMA garde le reste de 1/3 · 3
    EXPECT_EQ(r.fma[1], 1.0f);  EXPECT_EQ(r.fma[2], up);
    EXPECT_EQ(r.fma[3], 1.0f);
    EXPECT_EQ(r.fma_ieee[0], 1.0f);  EXPECT_EQ(r.fma_ieee[1], 1.0f);
    EXPECT_EQ(r.fma_ieee[2], up);    EXPECT_EQ(r.fma_ieee[3], 1.0f);
    EXPECT_EQ(r.to_float[0], 16777216.0f);  // 2^24 + 1 : à égale distance, vers le pair
    EXPECT_EQ(r.to_float[1], 16777216.0f);
    EXPECT_EQ(r.to_float[2], 16777218.0f);
    EXPECT_EQ(r.to_float[3], r.div[1]);
    const double dup = std::nextafter(1.0, 2.0), ddown = std::nextafter(1.0, 0.0);
    EXPECT_EQ(r.dadd[0], 1.0);  EXPECT_EQ(r.dadd[1], 1.0);  EXPECT_EQ(r.dadd[2], dup);  EXPECT_EQ(r.dadd[3], ddown);
    EXPECT_EQ(r.ddiv[0], 1.0 / 3.0);  EXPECT_EQ(r.ddiv[1], 1.0 / 3.0);
    EXPECT_EQ(r.ddiv[2], std::nextafter(1.0 / 3.0, 1.0));  EXPECT_EQ(r.ddiv[3], ddown);
    EXPECT_EQ(r.dsqrt[0], std::sqrt(2.0));
    EXPECT_EQ(r.dsqrt[2], std::nextafter(r.dsqrt[1], 2.0));
    EXPECT_EQ(r.dsqrt[3], 1.0 / 3.0);
    EXPECT_EQ(r.dfma[0], 1.0);  EXPECT_EQ(r.dfma[1], 1.0);  EXPECT_EQ(r.dfma[2], dup);  EXPECT_EQ(r.dfma[3], -1.0);
    EXPECT_EQ(r.ll_to_double[0], 9007199254740992.0);
    EXPECT_EQ(r.ll_to_double[1], 9007199254740992.0);
    EXPECT_EQ(r.ll_to_double[2], 9007199254740994.0);
    EXPECT_EQ(r.ll_to_double[3], 9223372036854775808.0);
    EXPECT_EQ(r.saturate_nan, 0.0f);
    EXPECT_EQ(r.saturate_big, 1.0f);
    EXPECT_FLOAT_EQ(r.log10, 3.0f);
    EXPECT_EQ(r.sine, 0.0f);
    EXPECT_EQ(r.cosine, 1.0f);
    // Le mode d'arrondi de l'hôte est rétabli après chaque opération.
    EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

TEST(Intrinsics, ConversionsSaturateAndBitOperations) {
    IntegerResults* device = device_copy_of(IntegerResults{});
    integer_operations<<<1, 1>>>(device);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const IntegerResults r = back_and_free(device);
    const int to_int[] = {2, 4, -2, -1, -1, INT_MAX, INT_MIN, 0, -1, 1, -7, -2};
    for (int i = 0; i < 12; ++i) EXPECT_EQ(r.to_int[i], to_int[i]) << i;
    EXPECT_EQ(r.to_ll[0], -3);
    EXPECT_EQ(r.to_ll[1], LLONG_MAX);
    EXPECT_EQ(r.to_ll[2], 10000000000LL);
    EXPECT_EQ(r.to_ll[3], LLONG_MIN);
    EXPECT_EQ(r.to_uint[0], 0u);
    EXPECT_EQ(r.to_uint[1], 2u);
    EXPECT_EQ(r.to_uint[2], UINT_MAX);
    EXPECT_EQ(r.to_uint[3], 4294967040u);
    EXPECT_EQ(r.to_ull[0], 0u);
    EXPECT_EQ(r.to_ull[1], 10000000000000000000ULL);
    EXPECT_EQ(r.bits[0], 0x55441100u);
    EXPECT_EQ(r.bits[1], 0x00112233u);
    EXPECT_EQ(r.bits[2], 0x00000003u);
    EXPECT_EQ(r.bits[3], 0x00000003u);
    EXPECT_EQ(r.bits[4], 0x80000000u);
    EXPECT_EQ(r.bits[5], 0x80000000u);
    EXPECT_EQ(r.bits[6], 0x00000003u);
    EXPECT_EQ(r.bits[7], 0xfffffffeu);
    EXPECT_EQ(r.bits[8], 12u);
    EXPECT_EQ(r.bits[9], 11u);
    EXPECT_EQ(r.bits[10], 0xffffffffu);
    EXPECT_EQ(r.bits[11], 3u);
    EXPECT_EQ(static_cast<unsigned long long>(r.wide[0]), 1ULL << 63);
    EXPECT_EQ(r.wide[1], -1);  // −2^62 : le mot haut est −1
    EXPECT_EQ(r.wide[2], 2);
    EXPECT_EQ(r.wide[3], 3);
    EXPECT_EQ(r.arithmetic[0], -15);
    EXPECT_EQ(r.arithmetic[1], INT_MAX);
    EXPECT_EQ(r.arithmetic[2], -1);
    EXPECT_EQ(r.arithmetic[3], 1 + 2 + 3 + 4 + 10);
    EXPECT_EQ(r.arithmetic[4], 0);
    EXPECT_EQ(r.arithmetic[5], 24);
    EXPECT_EQ(r.arithmetic[6], 24);
    EXPECT_EQ(r.arithmetic[7], 10);
    EXPECT_EQ(r.arithmetic[8], 3);
    EXPECT_EQ(r.arithmetic[9], 512);
    EXPECT_EQ(r.pieces, 1.5);
    EXPECT_EQ(static_cast<unsigned>(r.hi), 0xc0000000u);
    EXPECT_EQ(r.lo, 0);
}

TEST(Intrinsics, ScopedAndBuiltinAtomics) {
    AtomicResults initial{};
    initial.cas64 = 0x100000000ULL;
    AtomicResults* device = device_copy_of(initial);
    scoped_atomics<<<2, 64>>>(device);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const AtomicResults r = back_and_free(device);
    EXPECT_EQ(r.block_sum, 128);
    EXPECT_EQ(r.system_sum, 256);
    EXPECT_EQ(r.nv_sum, 384);
    EXPECT_EQ(r.nv_max, 63);
    EXPECT_EQ(r.nv_min, -63);
    EXPECT_EQ(r.nv_bits, 0xffffffffu);
    EXPECT_EQ(r.cas64, 0x200000000ULL);
    EXPECT_EQ(r.nv_exchanged, 0);
    EXPECT_EQ(r.nv_cas_ok, 1);
    // Échec : 0 rendu, et la valeur trouvée (43) écrite dans l'attendu.
    EXPECT_EQ(r.nv_cas_fail, 43);
    EXPECT_EQ(r.nv_loaded % 100, 43);
}
