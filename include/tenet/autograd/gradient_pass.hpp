#pragma once
// The fused first-order backward on the host: one pass over the elements evaluates the gradient
// of every leaf of a recorded expression (grad_at<K>, autograd/element_gradients.hpp), each
// summed back to its leaf's shape: in the pass itself for a one-element leaf (LaneSum) and for
// a leaf over the root's trailing dims (a bias [n] added to [m, n]: PeriodicSums), by sum_to
// after it for any other broadcast leaf. FusedNode, ReduceNode and EagerSumNode (record.hpp)
// run it.

#include "tenet/config.hpp"
#include <array>
#include <cstddef>
#include <cstring>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "tenet/autograd/derivatives.hpp"
#include "tenet/autograd/element_gradients.hpp"
#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/autograd/saved_expression.hpp"
#include "tenet/backend/host/evaluate.hpp"
#include "tenet/core/meta.hpp"
#include "tenet/backend/host/reduce_loops.hpp"
#include "tenet/backend/host/simd_dispatch.hpp"
#include "tenet/expr/pow_rewrite.hpp"
#include "tenet/ops/reduce.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// The dims of `full_sizes` that summing back to `shape` reduces: those broadcasting added
/// (leading) or stretched (size 1 in `shape`).
inline IntArray sum_to_dims(const IntArray& full_sizes, const IntArray& shape) {
    const size_t lead = full_sizes.size() - shape.size();
    IntArray dims;
    for (size_t d = 0; d < full_sizes.size(); ++d)
        if (d < lead || (shape[d - lead] == 1 && full_sizes[d] != 1)) dims.push_back(static_cast<int64_t>(d));
    return dims;
}

/// sum_to on a device: a reduction kernel, which only a translation unit with the device
/// evaluator can instantiate. Such a TU registers it here (below), so that sum_to itself, and
/// the nodes that call it, do not depend on how the TU calling them was compiled (the compiled
/// library, built by the host compiler, holds them).
using DeviceSumTo = TensorBase (*)(const TensorBase& full, const IntArray& shape);
inline DeviceSumTo& device_sum_to_slot() {
    static DeviceSumTo sum_to = nullptr;
    return sum_to;
}

#if TENET_DEVICE_EVALUATOR
// A template, so that its body is instantiated at the end of the TU, where the device reduction
// (kernels/) and the hooks it reaches are defined: Clang leaves them undefined when a plain
// inline function here uses them first.
template <class = void>
TensorBase device_sum_to(const TensorBase& full, const IntArray& shape) {
    return visit_floating(full.dtype(), "backward", [&](auto tag) -> TensorBase {
        using T = typename decltype(tag)::type;
        const IntArray dims = sum_to_dims(full.sizes(), shape);
        return Tensor<T>(detail::reduce_row<detail::ReduceKind::sum>(Tensor<T>(full.impl_ptr()), dims, true)).view(shape);
    });
}
inline const bool device_sum_to_registered = (device_sum_to_slot() = &device_sum_to<>, true);
#endif

/// Sums `full` (contiguous) over the dims that broadcasting added or stretched, back to
/// `shape`, accumulating in double. A plain strided loop, not a reduction expression: it
/// is instantiated wherever anything is recorded.
template <class T>
Tensor<T> sum_to(const Tensor<T>& full, const IntArray& shape) {
    if (full.sizes() == shape) return full;
    if (product(shape) == full.numel()) return full.contiguous().view(shape);  // only size-1 dims differ
    if (!full.is_cpu()) {  // a reduction on the device
        if (full.is_meta()) return detail::meta_result<T>(shape);
        if (const DeviceSumTo device_sum = device_sum_to_slot()) return Tensor<T>(device_sum(full, shape).impl_ptr());
        detail::no_device_evaluator("backward", full.device());
    }
    const Tensor<T> src = full.contiguous();
    // The destination as strides over full's shape: 0 along the summed dims.
    const IntArray dense = detail::contiguous_strides(shape);
    const size_t lead = src.sizes().size() - shape.size();
    IntArray to(src.sizes().size(), 0);
    for (size_t d = lead; d < src.sizes().size(); ++d)
        if (!(shape[d - lead] == 1 && src.sizes()[d] != 1)) to[d] = dense[d - lead];
    std::vector<double> acc(static_cast<size_t>(product(shape)), 0.0);
    const T* from = src.data_ptr();
    detail::for_each_offset<2>(src.sizes(), {to, src.strides()}, {0, 0}, [&](const std::array<int64_t, 2>& o) {
        acc[static_cast<size_t>(o[0])] += convert<double>(from[o[1]]);
    });
    Tensor<T> out(detail::make_contiguous_impl(shape, dtype_of<T>, Device(DeviceType::CPU)));
    T* o = out.data_ptr();
    for (size_t k = 0; k < acc.size(); ++k) o[k] = convert<T>(acc[k]);
    return out;
}

// ---- One pass for all the gradients of a node ---------------------------------------------
//
// The gradient expressions of a node's leaves repeat most of the forward (sigmoid(x*w + b)
// appears in the gradient of w and of b). Evaluated in one loop over ONE shared table of
// operand pointers, the compiler sees the same loads and computes the shared part once.
// So every leaf of every gradient expression reads a fixed slot of that table: a SlotLeaf.

/// A contiguous operand of a backward expression: element i of slot `Slot` of the table.
template <class T, size_t Slot>
struct SlotLeaf : ExpressionBase<SlotLeaf<T, Slot>> {
    using value_type = T;
    using static_shape = DynamicShape;
    static constexpr int arity = 0;  // a leaf (expr/tree.hpp)
    static constexpr size_t num_leaves = 1;  // keeps leaf positions (leaf_grad<K>) as in the forward
    static constexpr bool is_scalar = false;
    static constexpr bool lasting_shape = true;  // the caller's, outliving the expressions
    static constexpr bool holds_values = false;

    const IntArray* shape_;

    explicit SlotLeaf(const IntArray& s) : shape_(&s) {}
    const IntArray& shape() const { return *shape_; }
    std::optional<Device> device() const { return std::nullopt; }
    template <class F>
    void for_each_leaf(F&&) const {}
    template <size_t K, class Ptrs>
    TENET_ALWAYS_INLINE T at(const Ptrs& ptrs, int64_t i) const {
        return static_cast<const T*>(ptrs[Slot])[i];
    }
};
/// n with its leaves replaced by SlotLeafs numbered from Base in leaf order.
template <size_t Base, class N>
auto slotted(const N& n, const IntArray& shape) {
    if constexpr (arity_v<N> < 0) {
        return n;
    } else if constexpr (arity_v<N> == 0) {
        return SlotLeaf<typename N::value_type, Base>(shape);
    } else {
        return expr::rebuild(n, [&]<class O, size_t I>(const O& o, expr::index_c<I>) {
            return slotted<Base + expr::leaves_before_v<N, I>>(o, shape);
        });
    }
}

/// Where an unwanted gradient goes.
template <class T, int64_t N>
struct ScratchBlock {
    ScratchBlock() {}  // user-provided: value-initialisation leaves the block uninitialised
    T data[N];
};

/// The upstream gradient at element j, as the per-element rules take it: a seed over numbers as
/// it is, a tensor's element as a Val.
template <class Seed, class Ptrs>
TENET_LOOP_INLINE auto seed_at(const Seed& seed, const Ptrs& at, int64_t j) {
    if constexpr (Seed::holds_values) return seed;
    else return val_t<Seed>(seed.template at<0>(at, j));
}
template <class Seed>
using seed_value_t = decltype(seed_at(std::declval<const Seed&>(), std::declval<const std::array<const void*, 1>&>(), 0));

/// Whether leaf K of the (slotted) expression SE gets a gradient from the upstream gradient Seed.
template <size_t K, class SE, class Seed>
inline constexpr bool wants_gradient = gradient_reaches<K, SE, seed_value_t<Seed>>();

/// Element j of leaf K's gradient, as T (always inlined: a call left in run_gradients' loop, as
/// GCC leaves a large lambda at -O2, stops its vectorisation).
template <class T, size_t K, class SE, class Seed, class Ptrs>
TENET_LOOP_INLINE T gradient_at(const SE& se, const Seed& seed, const Ptrs& at, int64_t j) {
    if constexpr (!wants_gradient<K, SE, Seed>) return T{};
    else return convert<T>(grad_at<K, 0>(se, at, j, seed_at(seed, at, j)).template at<0>(at, j));
}

/// Stores element j of every gradient, all computed before the first store (arguments are
/// evaluated before the call). A store through a float pointer could reach the operands, so a
/// value computed after one loads them again and repeats the shared work: W8 computed
/// sigmoid(x*w + b) five times per element, 2.5x slower. Scalar arguments, not a tuple,
/// which GCC -O2 keeps in memory (no vectorisation).
template <class... T, size_t... K, class... V>
TENET_LOOP_INLINE void store_gradients(const std::tuple<T*...>& to, int64_t j, std::index_sequence<K...>,
                                                   V... v) {
    ((std::get<K>(to)[j] = v), ...);
}

/// The elements run_gradients evaluates per block (the scratch blocks' length).
inline constexpr int64_t kGradientBlock = 256;

/// Evaluates the gradient of every leaf K of `se` (for the upstream gradient `seed`) at every
/// element, in one loop, into `outs` (a null pointer: not wanted); with WithValue, the value of
/// `se` itself too, into the last output. Unwanted gradients are still computed (most of their
/// work is shared) and written to a small scratch block.
/// The operands of each block come from `table.block(i0, len)` (GradientTable below). Full blocks
/// run a constant-trip loop (vectorised at -O2); on_block(outputs, i0, len) sees each block's outputs.
/// Flattened: every call in it is inlined, since GCC's -O2 inliner leaves functors such as
/// Sigmoid out of line in a large translation unit, which leaves the loop scalar. (Flatten
/// alone misses calls GCC has not processed yet; the nodes' at() and the unary functors are
/// always_inline for that.)
template <bool WithValue, class SE, class Seed, class Table, class... T, size_t... K, class OnBlock>
TENET_LOOP_FLATTEN void run_gradients(const SE& se, const Seed& seed, std::tuple<T*...> outs, Table& table, int64_t n,
                                      std::index_sequence<K...>, OnBlock&& on_block) {
    constexpr int64_t kBlock = kGradientBlock;
    using Types = std::tuple<T...>;
    using Ptrs = decltype(table.ptrs);
    // One block: `count` elements, the operands at `block`, the outputs at `o`.
    auto run = [&](const auto count, const Ptrs& block, const std::tuple<T*...>& o) TENET_FLATTEN_INLINE {
        // Local copies: the expression's numbers and the pointers then live in registers (a
        // float number in `se` could be reached by the float stores, so it would be loaded
        // again per element, and the loop would not vectorise).
        const SE local = se;
        const Seed local_seed = seed;
        const Ptrs at = block;
        const std::tuple<T*...> to = o;
        const int64_t last = count;  // a plain bound: GCC ignores ivdep on a class-typed one
        // Every output is a fresh buffer: no store can reach an operand. `omp simd`
        // (TENET_SIMD_LOOP): GCC's -O2 cost model would not peel for alignment.
        TENET_SIMD_LOOP
        for (int64_t j = 0; j < last; ++j) {
            // All values, then the stores (store_gradients): the shared work is done once.
            if constexpr (WithValue)
                store_gradients(to, j, std::index_sequence_for<T...>{},
                                gradient_at<std::tuple_element_t<K, Types>, K>(local, local_seed, at, j)...,
                                convert<std::tuple_element_t<sizeof...(K), Types>>(local.template at<0>(at, j)));
            else
                store_gradients(to, j, std::index_sequence<K...>{},
                                gradient_at<std::tuple_element_t<K, Types>, K>(local, local_seed, at, j)...);
        }
    };
    std::tuple<ScratchBlock<T, kBlock>...> scratch;  // not zero-filled: only ever written
    // The whole pass, the blocks' sums (on_block) included, in the CPU's widest vectors.
    detail::run_vectorised([&] {
        for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
            const int64_t len = std::min(kBlock, n - i0);
            const std::tuple<T*...> o = [&]<size_t... I>(std::index_sequence<I...>) {
                return std::tuple<T*...>{(std::get<I>(outs) ? std::get<I>(outs) + i0 : std::get<I>(scratch).data)...};
            }(std::index_sequence_for<T...>{});
            const Ptrs block = table.block(i0, len);
            if (len == kBlock) run(std::integral_constant<int64_t, kBlock>{}, block, o);
            else run(len, block, o);
            on_block(o, i0, len);  // the block's outputs, scratch included
        }
    });
}

/// The gradients of e's leaves that have an edge, given the gradient node `g` of e's
/// result (a Leaf over a tensor of e's shape, or a ScalarNode), each summed back to its
/// leaf's shape. Run with grad mode off: the expressions here are not recorded (recording
/// them would instantiate the derivative of the derivative, without end).
template <class E, class G, size_t... K>
GradientList device_leaf_gradients(const E& e, const G& g, const EdgeList& edges, const IntArray& root, Device device,
                                   std::index_sequence<K...>) {
    GradientList out(E::num_leaves);
#if TENET_DEVICE_EVALUATOR
    const std::vector<TensorBase> leaf_handles = leaves_of(e);
    auto one = [&](auto k) {
        constexpr size_t I = decltype(k)::value;
        using LT = leaf_t<I, E>;
        const auto ge = leaf_grad<I>(e, g);
        if constexpr (!is_no_gradient<std::remove_cvref_t<decltype(ge)>>) {
            if (!edges[I].valid()) return;
            // One kernel per gradient, over the root's shape, then summed to the leaf's. Straight
            // to the device evaluator: run_assign would also instantiate the host evaluator for
            // each gradient expression, which only ever runs here on a device.
            Tensor<LT> gk(detail::make_contiguous_impl(root, dtype_of<LT>, device));
            detail::device_evaluate(gk, ge);
            out[I] = sum_to(gk, leaf_handles[I].sizes());
        }
    };
    (one(std::integral_constant<size_t, K>{}), ...);
#else
    (void)e, (void)g, (void)edges, (void)root;
    detail::no_device_evaluator("backward", device);
#endif
    return out;
}

/// The gradients of an expression's leaves on the meta device: for each leaf that a gradient
/// reaches (`reaches`, from the expression's type) and that has an edge, a meta tensor of its
/// shape and dtype. Computed from nothing: the gradient of a meta expression has no values.
TENET_FIXED GradientList meta_leaf_gradients(std::span<const TensorBase* const> leaves, std::span<const bool> reaches,
                                             const EdgeList& edges);
#if TENET_HEADER_DEFINITIONS
TENET_FIXED GradientList meta_leaf_gradients(std::span<const TensorBase* const> leaves, std::span<const bool> reaches,
                                             const EdgeList& edges) {
    GradientList out(leaves.size());
    for (size_t k = 0; k < leaves.size(); ++k)
        if (reaches[k] && edges[k].valid())
            out[k] = detail::meta_result(leaves[k]->sizes(), leaves[k]->dtype());
    return out;
}
#endif

/// The upstream gradient of a whole-tensor reduction, a number, as a 0-d expression of R that
/// promotes as a tensor does (not as a weak number): PyTorch's gradient is a tensor of R, so
/// the gradient of x / d (x float64, d float32) is computed in float64.
template <class G>
auto strong_seed(const G& g) {
    if constexpr (G::is_scalar) {
        using R = typename G::value_type;
        return expr::Unary<fn::CastTo<R>, G>(g);
    } else {
        return g;
    }
}

// The parts of the pass that do not depend on the expression's tree, only on its number of
// leaves L: instantiated once per L, shared by every expression of a translation unit.

/// How a pass reads a leaf of an expression over `root` (n elements).
enum class LeafLayout {
    InPlace,   ///< root's n elements in order
    Single,    ///< one element (a broadcast 0-d parameter): a block of copies of it
    Periodic,  ///< contiguous, of root's trailing dims (a bias [n] added to [m, n]): element i of
               ///< the root reads element i % numel, and its gradient is summed back in the pass
    Expanded,  ///< anything else: expanded to root's shape and copied first
};

/// Whether t lies over root's trailing dims exactly (leading dims of size 1 aside), contiguous,
/// with fewer elements than root: so that root's element i is t's element i % t.numel().
inline bool repeats_along(const TensorBase& t, const IntArray& root) {
    const IntArray& sizes = t.sizes();
    size_t first = 0;  // t's leading size-1 dims do not count
    while (first < sizes.size() && sizes[first] == 1) ++first;
    const size_t rank = sizes.size() - first;
    if (rank > root.size() || !t.is_contiguous() || t.numel() >= product(root)) return false;
    for (size_t d = 0; d < rank; ++d)
        if (sizes[first + d] != root[root.size() - rank + d]) return false;
    return true;
}

inline LeafLayout leaf_layout(const TensorBase& t, int64_t n, const IntArray& root) {
    if (t.numel() == n && t.is_contiguous()) return LeafLayout::InPlace;
    if (t.numel() == 1) return LeafLayout::Single;
    if (repeats_along(t, root)) return LeafLayout::Periodic;
    return LeafLayout::Expanded;
}

/// The operand table of a gradient pass: slot k is leaf k's data (steps[k]: its element size, or
/// 0 for a block of copies of a one-element leaf), slot L the incoming gradient when it is a
/// tensor. A periodic leaf (period[k] > 0) is read from where the block starts modulo its period,
/// or, where a block wraps around its end, from a tile of its elements in copies[k].
template <size_t L>
struct GradientTable {
    std::array<const void*, L + 1> ptrs{};
    std::array<int64_t, L + 1> steps{};
    std::array<bool, L> single{};     ///< a one-element leaf, read from copies[k]
    std::array<int64_t, L> period{};  ///< a periodic leaf's number of elements; 0: not periodic
    alignas(64) std::array<std::array<std::byte, kGradientBlock * sizeof(double)>, L> copies;

    /// The operands of elements [i0, i0 + len), len <= kGradientBlock.
    TENET_LOOP_INLINE std::array<const void*, L + 1> block(int64_t i0, int64_t len) {
        std::array<const void*, L + 1> b{};
        for (size_t s = 0; s < L + 1; ++s) {
            const auto* base = static_cast<const std::byte*>(ptrs[s]);
            if (!base) continue;
            if (s < L && period[s] > 0) b[s] = periodic_block(s, base, i0 % period[s], len);
            else b[s] = base + i0 * steps[s];
        }
        return b;
    }

private:
    const void* periodic_block(size_t k, const std::byte* base, int64_t at, int64_t len) {
        const int64_t size = steps[k];
        if (at + len <= period[k]) return base + at * size;
        std::byte* tile = copies[k].data();
        for (int64_t done = 0; done < len;) {  // runs of the leaf, wrapping at its end
            const int64_t run = std::min(period[k] - at, len - done);
            std::memcpy(tile + done * size, base + at * size, static_cast<size_t>(run * size));
            done += run;
            at = 0;
        }
        return tile;
    }
};

/// Fills the table from the leaves of our own copy of the expression (leaf_layout says how each
/// is read); an Expanded leaf is replaced by its expanded copy (in the copy).
template <size_t L>
void fill_gradient_table(GradientTable<L>& table, const std::array<const TensorBase*, L>& leaves, int64_t n,
                         const IntArray& root) {
    for (size_t k = 0; k < L; ++k) {
        TensorBase& leaf = const_cast<TensorBase&>(*leaves[k]);  // our own copy's leaf
        const int64_t size = leaf.element_size();
        switch (leaf_layout(leaf, n, root)) {
            case LeafLayout::Single: {
                std::byte* rep = table.copies[k].data();
                for (int64_t i = 0; i < kGradientBlock; ++i) std::memcpy(rep + i * size, detail::first_byte(leaf), size);
                table.ptrs[k] = rep;
                table.single[k] = true;
                continue;
            }
            case LeafLayout::Periodic: table.period[k] = leaf.numel(); break;
            case LeafLayout::Expanded: leaf = contiguous_expanded(leaf, root); break;
            case LeafLayout::InPlace: break;
        }
        table.ptrs[k] = detail::first_byte(leaf);
        table.steps[k] = size;
    }
}

/// Whether fill_gradient_table will replace one of these leaves (of an expression over root) by
/// an expanded copy. Only then does a pass need its own copy of the expression.
template <size_t L>
bool needs_expanded_leaves(const std::array<const TensorBase*, L>& leaves, int64_t n, const IntArray& root) {
    for (const TensorBase* t : leaves)
        if (leaf_layout(*t, n, root) == LeafLayout::Expanded) return true;
    return false;
}

/// The gradients of periodic leaves, summed back to the leaf in the pass: element j of a block
/// starting at i0 adds into sums[k][(i0 + j) % period], in double (as sum_to does).
template <size_t L>
struct PeriodicSums {
    std::array<std::vector<double>, L> sums;

    template <class T>
    TENET_LOOP_INLINE void add(size_t k, const T* block, int64_t i0, int64_t len) {
        std::vector<double>& s = sums[k];
        const auto period = static_cast<int64_t>(s.size());
        int64_t at = i0 % period;
        for (int64_t done = 0; done < len;) {
            const int64_t run = std::min(period - at, len - done);
            double* to = s.data() + at;
            const T* from = block + done;
            TENET_SIMD_LOOP
            for (int64_t j = 0; j < run; ++j) to[j] += convert<double>(from[j]);
            done += run;
            at = 0;
        }
    }
};

/// A gradient buffer of root's shape for each leaf that wants one (`wanted`: the expression can
/// give it; a valid edge: it needs it), into out[k] and raw[k]; a one-element leaf's gradient is
/// summed in the pass instead (summed[k]), and so is a periodic leaf's (into periodic.sums[k]).
template <size_t L>
void allocate_leaf_gradients(const std::array<bool, L>& wanted, const std::array<DType, L>& types,
                             const EdgeList& edges, const GradientTable<L>& table, const IntArray& root,
                             GradientList& out, std::array<void*, L>& raw, std::array<bool, L>& summed,
                             PeriodicSums<L>& periodic) {
    for (size_t k = 0; k < L; ++k) {
        if (!wanted[k] || !edges[k].valid()) continue;
        if (table.single[k]) {
            summed[k] = true;
            continue;
        }
        if (table.period[k] > 0) {
            periodic.sums[k].assign(static_cast<size_t>(table.period[k]), 0.0);
            continue;
        }
        out[k] = TensorBase(detail::make_contiguous_impl(root, types[k], Device(DeviceType::CPU)));
        raw[k] = detail::first_byte(out[k]);
    }
}

/// Adds a block (elements [i0, i0 + len)) of each summed gradient to its sum, and of each periodic
/// one to its periodic sums; LT... are the leaves' element types. Inlined into the pass's loop (its
/// AVX2 copy included).
template <class... LT, size_t... K>
TENET_LOOP_INLINE void sum_gradient_blocks(const std::array<bool, sizeof...(LT)>& summed,
                                           PeriodicSums<sizeof...(LT)>& periodic, const std::tuple<LT*...>& blocks,
                                           int64_t i0, int64_t len, std::tuple<detail::LaneSum<LT>...>& sums,
                                           std::index_sequence<K...>) {
    ((summed[K] ? std::get<K>(sums).add(std::get<K>(blocks), len) : void()), ...);
    ((periodic.sums[K].empty() ? void() : periodic.add(K, std::get<K>(blocks), i0, len)), ...);
}

/// Each gradient of root's shape summed back to its leaf's shape; a summed one as a tensor of the
/// leaf's shape (LT...: as sum_gradient_blocks).
template <class... LT, size_t... K>
void finish_leaf_gradients(GradientList& out, const std::array<bool, sizeof...(LT)>& summed,
                           const PeriodicSums<sizeof...(LT)>& periodic, const std::tuple<detail::LaneSum<LT>...>& sums,
                           const std::array<const TensorBase*, sizeof...(LT)>& leaves, std::index_sequence<K...>) {
    auto one = [&]<class T>(size_t k, const detail::LaneSum<T>& sum) {
        if (summed[k]) {
            Tensor<T> t(detail::make_contiguous_impl(leaves[k]->sizes(), dtype_of<T>, Device(DeviceType::CPU)));
            *t.data_ptr() = convert<T>(sum.total());
            out[k] = t;
        } else if (const std::vector<double>& p = periodic.sums[k]; !p.empty()) {
            Tensor<T> t(detail::make_contiguous_impl(leaves[k]->sizes(), dtype_of<T>, Device(DeviceType::CPU)));
            T* o = t.data_ptr();
            for (size_t i = 0; i < p.size(); ++i) o[i] = convert<T>(p[i]);
            out[k] = t;
        } else if (out[k].defined()) {
            out[k] = sum_to(Tensor<T>(out[k].impl_ptr()), leaves[k]->sizes());
        }
    };
    if constexpr (sizeof...(LT) > 0) (one(K, std::get<K>(sums)), ...);
}

template <class E, class G, size_t... K>
GradientList leaf_gradients(const E& e, const G& g_in, const EdgeList& edges, const IntArray& root,
                            std::index_sequence<K...> leaves) {
    constexpr size_t L = E::num_leaves;
    const auto g = strong_seed(g_in);
    using GS = std::remove_cvref_t<decltype(g)>;
    if (const auto device = e.device(); device && !device->is_cpu()) {
        if (device->is_meta()) {
            // Which leaves a gradient reaches, from types alone (the pass's test, wants_gradient):
            // no gradient expression is built.
            using PassSeed = std::conditional_t<GS::num_leaves == 0, GS, SlotLeaf<typename GS::value_type, L>>;
            constexpr std::array<bool, L> reaches{wants_gradient<K, E, PassSeed>...};
            return meta_leaf_gradients(expr::leaf_tensors(e), reaches, edges);
        }
        return device_leaf_gradients(e, g, edges, root, *device, leaves);
    }
    const int64_t n = product(root);
    std::optional<E> own;  // our own copy of e, only where a leaf must be expanded
    const E& flat = needs_expanded_leaves(expr::leaf_tensors(e), n, root) ? own.emplace(e) : e;
    GradientTable<L> table;
    fill_gradient_table(table, expr::leaf_tensors(flat), n, root);
    // The incoming gradient: a number expression as it is, a tensor from slot L of the table.
    auto seed = [&] {
        if constexpr (GS::num_leaves == 0) {
            return g;
        } else {
            table.ptrs[L] = g.tensor.data_ptr();
            table.steps[L] = sizeof(typename GS::value_type);
            return SlotLeaf<typename GS::value_type, L>(root);
        }
    }();
    constexpr std::array<DType, L> types{dtype_of<leaf_t<K, E>>...};
    GradientList out(L);
    std::array<bool, L> summed{};  // gradients summed in the pass (one-element leaves)
    std::tuple<detail::LaneSum<leaf_t<K, E>>...> sums;
    PeriodicSums<L> periodic;  // and periodic leaves' gradients
    expr::with_fast_pows(slotted<0>(flat, root), [&](const auto& se) {
        using SE = std::remove_cvref_t<decltype(se)>;
        constexpr std::array<bool, L> wanted{wants_gradient<K, SE, decltype(seed)>...};
        std::array<void*, L> raw{};
        allocate_leaf_gradients(wanted, types, edges, table, root, out, raw, summed, periodic);
        run_gradients<false>(se, seed, std::tuple<leaf_t<K, E>*...>{static_cast<leaf_t<K, E>*>(raw[K])...}, table, n,
                             leaves, [&](const auto& o, int64_t i0, int64_t len) TENET_FLATTEN_INLINE {
                                 sum_gradient_blocks(summed, periodic, o, i0, len, sums, leaves);
                             });
    });
    finish_leaf_gradients<leaf_t<K, E>...>(out, summed, periodic, sums, expr::leaf_tensors(e), leaves);
    return out;
}

}  // namespace tenet::autograd
