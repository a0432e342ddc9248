#pragma once
// Matrix products: dot, vdot, mv, mm, bmm and matmul with PyTorch's rules (1-D·1-D -> 0-d,
// 2-D·1-D, 1-D·2-D, batched with broadcast batch dims), on float, double, complex64, complex128
// and integer tensors (integer products are exact and wrap as PyTorch's; complex ones run on the
// host, through cblas_cgemm/zgemm or Eigen; both operands of one dtype, as PyTorch's), on the host or on a device (cuBLAS for
// float and double on CUDA: linalg/gemm.hpp, kernels/tenet/cuda/blas.cuh). Operands may be views or expressions:
// an expression is evaluated once; a view whose matrices have a unit stride (contiguous or
// transposed) goes to the GEMM in place (linalg/gemm.hpp), a broadcast batch dim is never copied.
// Each result is one autograd node with PyTorch's grad_fn name (autograd/products.hpp).
//
// With static shapes (StaticTensor<T, Shape<2, 3>>) matmul's result shape is deduced at
// compile time, and inner dimensions that differ are a compile error naming both shapes.

#include "tenet/config.hpp"
#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tenet/core/static_shape.hpp"
#include "tenet/expr/complex.hpp"
#include "tenet/linalg/common.hpp"

namespace tenet::inline TENET_ABI {

// ---- Static shapes ---------------------------------------------------------------------

namespace detail {
template <class A, class B>
struct matmul_shape_result {
    static constexpr size_t ra = A::rank, rb = B::rank;
    static constexpr int64_t ka = ra ? A::extents[ra - 1] : 0;
    static constexpr int64_t kb = rb == 0 ? 0 : (rb == 1 ? B::extents[0] : B::extents[rb - 2]);
    static constexpr bool inner_ok = ka == kb || ka == Dyn || kb == Dyn;
    // Batch dims: all but the last two of each operand of rank >= 2 (none for a vector).
    static constexpr size_t ba = ra >= 2 ? ra - 2 : 0, bb = rb >= 2 ? rb - 2 : 0;
    static constexpr size_t batch = ba > bb ? ba : bb;
    static constexpr size_t rank = batch + (ra >= 2 ? 1 : 0) + (rb >= 2 ? 1 : 0);
    static constexpr auto compute() {
        std::array<int64_t, rank> out{};
        bool ok = true;
        for (size_t i = 0; i < batch; ++i) {
            const int64_t x = i < batch - ba ? 1 : A::extents[i - (batch - ba)];
            const int64_t y = i < batch - bb ? 1 : B::extents[i - (batch - bb)];
            if (x == y || y == 1) out[i] = x;
            else if (x == 1) out[i] = y;
            else if (x == Dyn) out[i] = y;
            else if (y == Dyn) out[i] = x;
            else ok = false;
        }
        size_t r = batch;
        if constexpr (ra >= 2) out[r++] = A::extents[ra - 2];
        if constexpr (rb >= 2) out[r++] = B::extents[rb - 1];
        return std::pair{out, ok};
    }
    static constexpr auto value = compute();
};
}  // namespace detail

/// The static shape of matmul(A, B). Instantiated with shapes that cannot be multiplied, it
/// fails to compile, and the compiler's message shows both Shape<...> arguments.
template <class A, class B>
struct static_matmul {
    using type = DynamicShape;
};
template <int64_t... A, int64_t... B>
struct static_matmul<Shape<A...>, Shape<B...>> {
    using result = detail::matmul_shape_result<Shape<A...>, Shape<B...>>;
    static_assert(sizeof...(A) >= 1 && sizeof...(B) >= 1,
                  "tenet: matmul: both arguments need to be at least 1-D (the two shapes are the arguments of "
                  "static_matmul<...> above)");
    static_assert(result::inner_ok,
                  "tenet: matmul: static shapes cannot be multiplied: the last dimension of the first differs from "
                  "the contracted dimension of the second (the two shapes are the arguments of static_matmul<...> "
                  "above)");
    static_assert(result::value.second,
                  "tenet: matmul: the batch dimensions of the static shapes cannot be broadcast (the two shapes are "
                  "the arguments of static_matmul<...> above)");
    using type = decltype(detail::shape_from<result::value.first>(std::make_index_sequence<result::rank>{}));
};
template <class A, class B>
using static_matmul_t = typename static_matmul<A, B>::type;

namespace detail {

/// Wraps a result in StaticTensor<T, S> when S is a static shape.
template <class S, class T>
auto with_static_shape(Tensor<T> t) {
    if constexpr (StaticShape<S>) return StaticTensor<T, S>(std::move(t));
    else return t;
}

// ---- Kernels on materialised tensors ---------------------------------------------------

/// Sum of a[i] * b[i] (conj(a[i]) * b[i] when Conj) over n elements with strides; integers wrap
/// (as PyTorch), floating and complex types use the BLAS dot (?dot, ?dotu, ?dotc) when there is one.
template <bool Conj = false, class T>
T dot_kernel(const T* a, int64_t sa, const T* b, int64_t sb, int64_t n) {
    if constexpr (std::is_integral_v<T>) {
        // In uint64_t the wrap is well-defined (a narrow unsigned type would promote to int).
        uint64_t acc = 0;
        for (int64_t i = 0; i < n; ++i) acc += static_cast<uint64_t>(a[i * sa]) * static_cast<uint64_t>(b[i * sb]);
        return static_cast<T>(acc);
    } else {
#ifdef TENET_HAVE_CBLAS
        if (n > 0 && sa > 0 && sb > 0) {
            const int N = static_cast<int>(n), A = static_cast<int>(sa), B = static_cast<int>(sb);
            if constexpr (std::is_same_v<T, float>) return cblas_sdot(N, a, A, b, B);
            else if constexpr (std::is_same_v<T, double>) return cblas_ddot(N, a, A, b, B);
            else {
                T r;
                if constexpr (std::is_same_v<T, complex<float>>) {
                    if constexpr (Conj) cblas_cdotc_sub(N, a, A, b, B, &r);
                    else cblas_cdotu_sub(N, a, A, b, B, &r);
                } else {
                    if constexpr (Conj) cblas_zdotc_sub(N, a, A, b, B, &r);
                    else cblas_zdotu_sub(N, a, A, b, B, &r);
                }
                return r;
            }
        }
#endif
        T acc = 0;
        for (int64_t i = 0; i < n; ++i) {
            if constexpr (Conj && is_complex_v<T>) acc += conj(a[i * sa]) * b[i * sb];
            else acc += a[i * sa] * b[i * sb];
        }
        return acc;
    }
}

template <class T>
const T* data_at(const Tensor<T>& t, int64_t offset) {
    return static_cast<const T*>(t.impl().storage->data()) + offset;
}

/// out[b] = alpha * A[b] B[b] + beta * out[b] over the leading dims. A is (..., n, k), B is
/// (..., k, p), both already expanded to out's batch shape (stride 0 where broadcast); out is
/// contiguous (..., n, p). When B is the same matrix for every batch and A's batch and row
/// dims merge into one stride, the batch folds into the rows: one GEMM (as PyTorch does).
template <class T>
void batched_gemm(const Tensor<T>& A, const Tensor<T>& B, Tensor<T>& out, T alpha, T beta) {
    const int64_t nd = A.dim();
    const int64_t nb = nd - 2;
    const int64_t n = A.sizes()[nd - 2], k = A.sizes()[nd - 1], p = B.sizes()[nd - 1];
    const IntArray batch(A.sizes().begin(), A.sizes().begin() + nb);
    const int64_t count = product(batch);
    if (count == 0 || n == 0 || p == 0 || out.is_meta()) return;  // meta: the result's shape is all there is
    const Device device = out.device();
    T* o = out.data_ptr();
    bool b_shared = true;
    for (int64_t d = 0; d < nb; ++d) b_shared = b_shared && (B.strides()[d] == 0 || B.sizes()[d] == 1);
    if (b_shared && count > 1) {
        // A's dims (batch..., n) merge when each stride is the next one's stride times its size.
        int64_t expected = A.strides()[nd - 2] * n;
        bool merges = true;
        for (int64_t d = nb - 1; d >= 0 && merges; --d) {
            if (A.sizes()[d] != 1 && A.strides()[d] != expected) merges = false;
            expected *= A.sizes()[d];
        }
        if (merges && A.strides()[nd - 2] != 0) {
            MatRef<T> a{data_at(A, A.storage_offset()), count * n, k, A.strides()[nd - 2], A.strides()[nd - 1]};
            gemm_on<T>(device, count * n, p, k, alpha, a, mat_ref(B, B.storage_offset(), nd - 2, nd - 1), beta, o, p);
            return;
        }
    }
    for (int64_t b = 0; b < count; ++b) {
        int64_t rest = b, oa = A.storage_offset(), ob = B.storage_offset();
        for (int64_t d = nb - 1; d >= 0; --d) {
            const int64_t i = rest % batch[d];
            rest /= batch[d];
            oa += i * A.strides()[d];
            ob += i * B.strides()[d];
        }
        gemm_on<T>(device, n, p, k, alpha, mat_ref(A, oa, nd - 2, nd - 1), mat_ref(B, ob, nd - 2, nd - 1), beta,
                   o + b * n * p, p);
    }
}

template <class T>
Tensor<T> mm_impl(const Tensor<T>& a, const Tensor<T>& b, const char* op) {
    if (a.dim() != 2) fail<shape_error>(op, ": self must be a matrix, got a ", a.dim(), "-D tensor of shape ", a.sizes());
    if (b.dim() != 2) fail<shape_error>(op, ": mat2 must be a matrix, got a ", b.dim(), "-D tensor of shape ", b.sizes());
    if (a.sizes()[1] != b.sizes()[0])
        fail<shape_error>(op, ": mat1 and mat2 shapes cannot be multiplied (", dims_x(a.sizes()), " and ",
                          dims_x(b.sizes()), ")");
    Tensor<T> out = new_tensor<T>({a.sizes()[0], b.sizes()[1]}, a.device());
    if (out.is_meta()) return out;
    gemm_on<T>(a.device(), a.sizes()[0], b.sizes()[1], a.sizes()[1], T(1), mat_ref(a, a.storage_offset(), 0, 1),
               mat_ref(b, b.storage_offset(), 0, 1), T(0), out.data_ptr(), b.sizes()[1]);
    return out;
}

template <class T>
Tensor<T> mv_impl(const Tensor<T>& a, const Tensor<T>& v, const char* op) {
    if (a.dim() != 2 || v.dim() != 1)
        fail<shape_error>(op, ": vector + matrix @ vector expected, got a ", a.dim(), "-D matrix ", a.sizes(),
                          " and a ", v.dim(), "-D vector ", v.sizes());
    if (a.sizes()[1] != v.sizes()[0])
        fail<shape_error>(op, ": size mismatch, got mat (", dims_x(a.sizes()), "), vec (", v.sizes()[0], ")");
    Tensor<T> out = new_tensor<T>({a.sizes()[0]}, a.device());
    if (out.is_meta()) return out;
    MatRef<T> vm{data_at(v, v.storage_offset()), v.sizes()[0], 1, v.strides()[0], 1};
    gemm_on<T>(a.device(), a.sizes()[0], 1, a.sizes()[1], T(1), mat_ref(a, a.storage_offset(), 0, 1), vm, T(0),
               out.data_ptr(), 1);
    return out;
}

/// dot (vdot when Conj: the first operand conjugated).
template <bool Conj = false, class T>
Tensor<T> dot_impl(const Tensor<T>& a, const Tensor<T>& b, const char* op) {
    if (a.dim() != 1 || b.dim() != 1)
        fail<shape_error>(op, ": 1D tensors expected, but got ", a.dim(), "D and ", b.dim(), "D tensors (shapes ",
                          a.sizes(), " and ", b.sizes(), ")");
    if (a.numel() != b.numel())
        fail<shape_error>(op, ": inconsistent tensor size, expected tensor [", a.numel(), "] and src [", b.numel(),
                          "] to have the same number of elements, but got ", a.numel(), " and ", b.numel(),
                          " elements respectively");
    Tensor<T> out = new_tensor<T>({}, a.device());
    if (!a.is_cpu()) {  // a 1 x n by n x 1 product
        if (a.is_meta()) return out;
        if constexpr (Conj && is_complex_v<T>) {  // the conjugate first, on the device
            const Tensor<T> ca = conj(a);
            return dot_impl<false>(ca, b, op);
        }
        const MatRef<T> row{data_at(a, a.storage_offset()), 1, a.numel(), a.numel(), a.strides()[0]};
        const MatRef<T> col{data_at(b, b.storage_offset()), b.numel(), 1, b.strides()[0], 1};
        gemm_on<T>(a.device(), 1, 1, a.numel(), T(1), row, col, T(0), out.data_ptr(), 1);
        return out;
    }
    *out.data_ptr() = dot_kernel<Conj>(data_at(a, a.storage_offset()), a.strides()[0], data_at(b, b.storage_offset()),
                                 b.strides()[0], a.numel());
    return out;
}

template <class T>
Tensor<T> bmm_impl(const Tensor<T>& a, const Tensor<T>& b, const char* op) {
    if (a.dim() != 3) fail<shape_error>(op, ": batch1 must be a 3D tensor, got shape ", a.sizes());
    if (b.dim() != 3) fail<shape_error>(op, ": batch2 must be a 3D tensor, got shape ", b.sizes());
    if (b.sizes()[0] != a.sizes()[0] || b.sizes()[1] != a.sizes()[2])
        fail<shape_error>(op, ": Expected size for first two dimensions of batch2 tensor to be: [", a.sizes()[0], ", ",
                          a.sizes()[2], "] but got: [", b.sizes()[0], ", ", b.sizes()[1], "] (shapes ", a.sizes(),
                          " and ", b.sizes(), ")");
    Tensor<T> out = new_tensor<T>({a.sizes()[0], a.sizes()[1], b.sizes()[2]}, a.device());
    batched_gemm<T>(a, b, out, T(1), T(0));
    return out;
}

/// torch.matmul on materialised operands.
template <class T>
Tensor<T> matmul_impl(const Tensor<T>& a, const Tensor<T>& b, const char* op) {
    const int64_t da = a.dim(), db = b.dim();
    if (da == 0 || db == 0)
        fail<shape_error>(op, ": both arguments to matmul need to be at least 1D, but they are ", da, "D and ", db,
                          "D");
    if (da == 1 && db == 1) return dot_impl(a, b, op);
    if (da == 2 && db == 1) return mv_impl(a, b, op);
    if (da == 1 && db == 2) {
        if (a.sizes()[0] != b.sizes()[0])
            fail<shape_error>(op, ": mat1 and mat2 shapes cannot be multiplied (1x", a.sizes()[0], " and ",
                              dims_x(b.sizes()), ")");
        return mm_impl(a.unsqueeze(0), b, op).squeeze(0);
    }
    if (da == 2 && db == 2) return mm_impl(a, b, op);
    // Batched: a vector operand becomes a matrix (1 x k or k x 1) and its dim is dropped after.
    const Tensor<T> A = da == 1 ? a.unsqueeze(0) : a;
    const Tensor<T> B = db == 1 ? b.unsqueeze(-1) : b;
    const int64_t n = A.sizes()[A.dim() - 2], k = A.sizes()[A.dim() - 1];
    const int64_t kb = B.sizes()[B.dim() - 2], p = B.sizes()[B.dim() - 1];
    if (k != kb)
        fail<shape_error>(op, ": shapes ", a.sizes(), " and ", b.sizes(), " cannot be multiplied (", n, "x", k, " and ",
                          kb, "x", p, ")");
    const IntArray batch_a(A.sizes().begin(), A.sizes().end() - 2);
    const IntArray batch_b(B.sizes().begin(), B.sizes().end() - 2);
    IntArray batch = broadcast_shapes(batch_a, batch_b, op);
    IntArray ea = batch, eb = batch, shape = batch;
    ea.push_back(n);
    ea.push_back(k);
    eb.push_back(k);
    eb.push_back(p);
    shape.push_back(n);
    shape.push_back(p);
    Tensor<T> out = new_tensor<T>(shape, a.device());
    batched_gemm<T>(A.expand(ea), B.expand(eb), out, T(1), T(0));
    if (da == 1) return out.squeeze(-2);
    if (db == 1) return out.squeeze(-1);
    return out;
}

/// PyTorch 1.13's grad_fn name for torch.matmul of operands with these dims: the batched
/// cases end in a view of a bmm (UnsafeViewBackward0), or a copy for 2-D @ batched.
inline const char* matmul_backward_name(int64_t da, int64_t db) {
    if (da == 1 && db == 1) return "DotBackward0";
    if (da == 2 && db == 1) return "MvBackward0";
    if (da == 1 && db == 2) return "SqueezeBackward3";
    if (da == 2 && db == 2) return "MmBackward0";
    return da == 2 ? "CloneBackward0" : "UnsafeViewBackward0";
}

/// Runs a product kernel with recording off, then records its result as one node.
template <class T, class F>
Tensor<T> recorded_product(const char* name, const Tensor<T>& a, const Tensor<T>& b, F&& kernel) {
    Tensor<T> r = untracked(kernel);
    record_product(name, ProductKind::Matmul, r, a, b, Tensor<T>(), 0.0, 1.0);
    return r;
}

/// Materialises both operands and checks their dtypes, then calls f(a, b).
template <class X, class Y, class F>
auto binary_product(const X& x, const Y& y, const char* op, F&& f) {
    using A = operand_value_t<X>;
    using B = operand_value_t<Y>;
    check_same_dtype<A, B>(op);
    check_gemm_dtype<A>(op);
    if constexpr (std::is_same_v<A, B> && is_gemm_element<A>) {
        const Tensor<A> a = materialize_anywhere(x, op), b = materialize_anywhere(y, op);
        expr::common_device(a.device(), b.device(), op);
        if (a.has_names() || b.has_names()) {  // the product of the unnamed operands, named (core/name_inference.hpp)
            const DimnameList names = matmul_names(a.names(), b.names());
            auto r = f(drop_names(a), drop_names(b));
            set_names(r.impl(), names);
            return r;
        }
        return f(a, b);
    } else {
        return Tensor<A>();  // unreachable: the checks above threw
    }
}

}  // namespace detail

// ---- Public API -------------------------------------------------------------------------

/// torch.matmul: dot for 1-D·1-D (0-d result), mv, mm, and batched products whose batch dims
/// broadcast (a 1-D operand is treated as a row/column vector and its dim removed). With two
/// static-shape operands the result is a StaticTensor of the deduced shape.
template <expr::TensorOperand X, expr::TensorOperand Y>
auto matmul(const X& a, const Y& b) {
    using S = static_matmul_t<detail::operand_shape_t<X>, detail::operand_shape_t<Y>>;
    auto r = detail::binary_product(a, b, "matmul", [](const auto& x, const auto& y) {
        return detail::recorded_product(detail::matmul_backward_name(x.dim(), y.dim()), x, y,
                                        [&] { return detail::matmul_impl(x, y, "matmul"); });
    });
    return detail::with_static_shape<S>(std::move(r));
}

/// torch.mm: (n x k) @ (k x p), both 2-D.
template <expr::TensorOperand X, expr::TensorOperand Y>
auto mm(const X& a, const Y& b) {
    return detail::binary_product(a, b, "mm", [](const auto& x, const auto& y) {
        return detail::recorded_product("MmBackward0", x, y, [&] { return detail::mm_impl(x, y, "mm"); });
    });
}

/// torch.bmm: (b x n x k) @ (b x k x p), both 3-D with equal batch sizes (no broadcasting).
template <expr::TensorOperand X, expr::TensorOperand Y>
auto bmm(const X& a, const Y& b) {
    return detail::binary_product(a, b, "bmm", [](const auto& x, const auto& y) {
        return detail::recorded_product("BmmBackward0", x, y, [&] { return detail::bmm_impl(x, y, "bmm"); });
    });
}

/// torch.mv: (n x k) matrix times k-vector.
template <expr::TensorOperand X, expr::TensorOperand Y>
auto mv(const X& a, const Y& v) {
    return detail::binary_product(a, v, "mv", [](const auto& x, const auto& y) {
        return detail::recorded_product("MvBackward0", x, y, [&] { return detail::mv_impl(x, y, "mv"); });
    });
}

/// torch.dot: inner product of two 1-D tensors of equal size (a 0-d tensor).
template <expr::TensorOperand X, expr::TensorOperand Y>
auto dot(const X& a, const Y& b) {
    return detail::binary_product(a, b, "dot", [](const auto& x, const auto& y) {
        return detail::recorded_product("DotBackward0", x, y, [&] { return detail::dot_impl(x, y, "dot"); });
    });
}

/// torch.vdot: dot with the first operand conjugated (sum conj(a[i]) b[i]) — the same as dot
/// for real tensors.
template <expr::TensorOperand X, expr::TensorOperand Y>
auto vdot(const X& a, const Y& b) {
    return detail::binary_product(a, b, "vdot", [](const auto& x, const auto& y) {
        return detail::recorded_product("VdotBackward0", x, y, [&] { return detail::dot_impl<true>(x, y, "vdot"); });
    });
}

namespace linalg {
/// torch.linalg.matmul: the same as tenet::matmul.
template <expr::TensorOperand X, expr::TensorOperand Y>
auto matmul(const X& a, const Y& b) {
    return tenet::matmul(a, b);
}
}  // namespace linalg

// ---- Methods on Tensor<T> (declared in core/tensor.hpp) ---------------------------------

template <class T>
template <class X>
auto Tensor<T>::matmul(const X& other) const {
    return tenet::matmul(*this, other);
}
template <class T>
template <class X>
auto Tensor<T>::mm(const X& other) const {
    return tenet::mm(*this, other);
}
template <class T>
template <class X>
auto Tensor<T>::bmm(const X& other) const {
    return tenet::bmm(*this, other);
}
template <class T>
template <class X>
auto Tensor<T>::mv(const X& other) const {
    return tenet::mv(*this, other);
}
template <class T>
template <class X>
auto Tensor<T>::dot(const X& other) const {
    return tenet::dot(*this, other);
}
template <class T>
template <class X>
auto Tensor<T>::vdot(const X& other) const {
    return tenet::vdot(*this, other);
}

}  // namespace tenet
