#pragma once
// tenet::nn::functional: the losses of torch.nn.functional and its normalisation, linear, dropout
// and one_hot functions, with PyTorch's arguments in Python's order and its reduction modes
// ("mean", "sum", "none"; kl_div also "batchmean").
//
// The pointwise losses are tenet expressions: with reduction "mean" or "sum" the loss and the
// inputs' gradients come from ONE fused pass (sum and mean over an expression, autograd/record.hpp).
// nll_loss is its own kernel with NllLossBackward0, on the host or a device (the targets are
// checked on the host first); cross_entropy of [N, C] host logits and class indices is one
// kernel forward and one backward (cross_entropy_rows); otherwise it is log_softmax then nll_loss (and, with label smoothing, PyTorch's smoothing term), as PyTorch
// composes it.
//
// smooth_l1_loss, huber_loss and kl_div are tenet expressions too (one fused pass for mean and
// sum). normalize, linear, layer_norm and batch_norm are compositions of tenet's operations
// (norm, matmul, var_mean), their gradients those of the composition; batch_norm in training
// updates the running statistics in place, as PyTorch. dropout draws its mask with rand_like
// from a tenet Generator (not PyTorch's random stream).

#include "tenet/config.hpp"
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>
#include <type_traits>

#include "tenet/core/grad_mode.hpp"
#include "tenet/core/hooks.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/core/meta.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/expr/operators.hpp"
#include "tenet/linalg/matmul.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/random.hpp"
#include "tenet/ops/reduce.hpp"
#include "tenet/backend/device/device_order.hpp"
#include "tenet/backend/host/simd_dispatch.hpp"
#include "tenet/backend/host/strided_loop.hpp"
#include "tenet/ops/softmax.hpp"

namespace tenet::inline TENET_ABI::nn::functional {

namespace detail {
using namespace tenet::detail;

/// Tensor<T>, in a parameter that does not take part in deducing T: an expression converts.
template <class T>
using Same = std::type_identity_t<Tensor<T>>;

enum class Reduction { Mean, Sum, None };

inline Reduction parse_reduction(std::string_view r, const char* op) {
    if (r == "mean") return Reduction::Mean;
    if (r == "sum") return Reduction::Sum;
    if (r == "none") return Reduction::None;
    fail<value_error>(op, ": ", r, " is not a valid value for reduction (\"mean\", \"sum\" or \"none\")");
}

/// The elementwise loss `e` reduced as asked: one fused pass (with gradients) for mean and sum.
template <class T, class E>
Tensor<T> reduce_loss(const E& e, Reduction r) {
    if (r == Reduction::Mean) return mean(e);
    if (r == Reduction::Sum) return sum(e);
    return Tensor<T>(e);
}

template <class T, class U>
void check_same_shape(const Tensor<T>& input, const Tensor<U>& target, const char* op) {
    if (input.sizes() != target.sizes())
        fail<value_error>(op, ": the target's size (", target.sizes(), ") must be the same as the input's size (",
                          input.sizes(), ")");
}

/// Each target's class weight (`weight[c]`, or 1 without weights; 0 where the target is
/// ignore_index) and their total, the divisor of the mean reduction. Raises value_error for a
/// weight that is not one per class, index_error for a class index outside [0, C).
struct TargetWeights {
    std::vector<double> of_target;
    double total = 0;
};
template <class T>
void check_class_weight(const Tensor<T>& weight, int64_t C, const char* op) {
    if (weight.defined() && (weight.dim() != 1 || weight.size(0) != C))
        fail<value_error>(op, ": weight tensor should be defined either for all ", C,
                          " classes or no classes but got weight tensor of shape: ", weight.sizes());
}
template <class T>
TargetWeights target_weights(const Tensor<int64_t>& target, const Tensor<T>& weight, int64_t C, int64_t ignore_index,
                             const char* op) {
    check_class_weight(weight, C, op);
    // Device targets are read here, on the host: their range is checked before any kernel runs.
    const Tensor<int64_t> t = target.cpu().contiguous();
    const Tensor<T> w = weight.defined() ? weight.cpu().contiguous() : Tensor<T>();
    TargetWeights r;
    r.of_target.resize(static_cast<size_t>(t.numel()));
    for (int64_t j = 0; j < t.numel(); ++j) {
        const int64_t c = t.data_ptr()[j];
        if (c == ignore_index) continue;
        if (c < 0 || c >= C) fail<index_error>(op, ": Target ", c, " is out of bounds (", C, " classes)");
        const double wc = w.defined() ? convert<double>(w.data_ptr()[c]) : 1.0;
        r.of_target[static_cast<size_t>(j)] = wc;
        r.total += wc;
    }
    return r;
}

/// nll_loss's loss of target element j (input [N, C, S], targets [N, S], w: each target's
/// weight, 0 where ignored): -w[j] * x[n, t[j], s].
template <class T>
struct NllLossAt {
    const T* x;
    const int64_t* t;
    const double* w;
    T* losses;
    int64_t C, S, ignore_index;
    TENET_HD void operator()(int64_t j) const {
        const int64_t n = j / S, s = j % S;
        losses[j] = t[j] == ignore_index ? T(0) : convert<T>(-w[j] * convert<double>(x[(n * C + t[j]) * S + s]));
    }
};
/// nll_loss's input gradient at target element j (dx zero elsewhere): -w[j] * g * scale, g the
/// gradient of element j (reduction none) or of the reduced loss.
template <class T>
struct NllLossBackwardAt {
    const T* g;
    const int64_t* t;
    const double* w;
    T* dx;
    int64_t C, S;
    double scale;
    bool per_element;
    TENET_HD void operator()(int64_t j) const {
        if (w[j] == 0) return;
        const int64_t n = j / S, s = j % S;
        dx[(n * C + t[j]) * S + s] = convert<T>(-w[j] * convert<double>(g[per_element ? j : 0]) * scale);
    }
};

/// nll_loss on input [N, C, S...] seen as [N, C, S] and target [N, S] (or input [C], target []),
/// on the input's device (the target on the same one).
template <class T>
Tensor<T> nll_loss_impl(const Tensor<T>& input, const Tensor<int64_t>& target, const Tensor<T>& weight,
                        int64_t ignore_index, Reduction reduction) {
    const char* op = "nll_loss";
    const Device device = input.device();
    if (target.device() != device || (weight.defined() && weight.device() != device))
        fail<device_error>(op, ": expected the input (on ", device, "), the target (on ", target.device(),
                           ") and the weight on one device");
    const int64_t nd = input.dim();
    if (nd < 1) fail<value_error>(op, ": input must have at least 1 dim (got a 0-d tensor)");
    const bool batched = nd >= 2;
    const int64_t N = batched ? input.size(0) : 1, C = input.size(batched ? 1 : 0);
    IntArray want;  // the target's expected shape: the input's without the class dim
    for (int64_t d = 0; d < nd; ++d)
        if (d != (batched ? 1 : 0)) want.push_back(input.size(d));
    if (target.sizes() != want)
        fail<value_error>(op, ": expected target of size ", want, " for input of size ", input.sizes(), ", got ",
                          target.sizes());
    if (device.is_meta()) [[unlikely]] {  // the shapes only: no target is read, no loss computed
        check_class_weight(weight, C, op);
        Tensor<T> result = tenet::detail::meta_result<T>(reduction == Reduction::None ? target.sizes() : IntArray{});
        record_function(
            nd >= 3 ? "NllLoss2DBackward0" : "NllLossBackward0", result, {},
            [sizes = input.sizes()](const TensorBase&) { return std::array<TensorBase, 1>{tenet::detail::meta_result<T>(sizes)}; },
            input);
        return result;
    }
    TargetWeights tw = target_weights(target, weight, C, ignore_index, op);
    const double total_weight = tw.total;
    const int64_t S = N == 0 || C == 0 ? 0 : input.numel() / (N * C);
    const Tensor<T> x = input.contiguous();
    const Tensor<int64_t> t = target.contiguous();
    // Each target's weight where the kernels read it.
    const Tensor<double> weights = tensor(tw.of_target, {static_cast<int64_t>(tw.of_target.size())}).to(device);
    // Per target element its loss, -w[c] * x[n, c, s] (0 where ignored).
    Tensor<T> losses(make_contiguous_impl(target.sizes(), dtype_of<T>, device));
    for_each_index_on(device, N * S,
                    NllLossAt<T>{x.data_ptr(), t.data_ptr(), weights.data_ptr(), losses.data_ptr(), C, S, ignore_index},
                    op);
    Tensor<T> result;
    if (reduction == Reduction::None) {
        result = losses;
    } else {
        double total = 0;  // in order, on the host (a device's losses copied back)
        for (const T& v : losses.to_vector()) total += convert<double>(v);
        if (reduction == Reduction::Mean) total /= total_weight;  // 0 / 0: NaN, as PyTorch
        result = full<T>({}, total, TensorOptions().device(device));
    }
    const double scale = reduction == Reduction::Mean ? 1.0 / total_weight : 1.0;
    record_function(
        nd >= 3 ? "NllLoss2DBackward0" : "NllLossBackward0", result, {},
        [t, weights, sizes = input.sizes(), N, C, S, scale, reduction](const TensorBase& grad) {
            const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
            Tensor<T> dx = zeros<T>(sizes, TensorOptions().device(g.device()));
            for_each_index_on(g.device(), N * S,
                            NllLossBackwardAt<T>{g.data_ptr(), t.data_ptr(), weights.data_ptr(), dx.data_ptr(), C, S,
                                                 scale, reduction == Reduction::None},
                            "NllLossBackward0");
            return std::array<TensorBase, 1>{dx};
        },
        input);
    return result;
}

/// cross_entropy of logits [N, C] (host) and class indices [N], without label smoothing: one pass
/// per row forward (its logsumexp and loss) and one backward, (softmax - one_hot) * w * g, as a
/// hand-written loop would; the node is nll_loss's, as PyTorch's result ends in it.
template <class T>
Tensor<T> cross_entropy_rows(const Tensor<T>& input, const Tensor<int64_t>& target, const Tensor<T>& weight,
                             int64_t ignore_index, Reduction reduction) {
    const char* op = "cross_entropy";
    check_host_access(target, op);
    const int64_t N = input.size(0), C = input.size(1);
    if (target.sizes() != IntArray{N})
        fail<value_error>(op, ": expected target of size ", IntArray{N}, " for input of size ", input.sizes(), ", got ",
                          target.sizes());
    TargetWeights tw = target_weights(target, weight, C, ignore_index, op);
    std::vector<double> row_weight = std::move(tw.of_target);
    const double total_weight = tw.total;
    using Cmp = softmax_compute_t<T>;
    const Tensor<T> x = input.contiguous().detach();
    const Tensor<int64_t> t = target.contiguous();
    std::vector<Cmp> lse(static_cast<size_t>(N));
    Tensor<T> losses(make_contiguous_impl({N}, dtype_of<T>, input.device()));
    double total = 0;
    const T* xp = x.data_ptr();
    run_vectorised([&] {
        for (int64_t r = 0; r < N; ++r) {
            const int64_t c = t.data_ptr()[r];
            if (c == ignore_index) {
                losses.data_ptr()[r] = T(0);
                continue;
            }
            const double wr = row_weight[static_cast<size_t>(r)];
            const Cmp l = row_logsumexp<Cmp>(xp + r * C, C, Cmp(1));
            lse[static_cast<size_t>(r)] = l;
            const double loss = wr * (static_cast<double>(l) - convert<double>(xp[r * C + c]));
            losses.data_ptr()[r] = convert<T>(loss);
            total += loss;
        }
    });
    Tensor<T> result = reduction == Reduction::None ? losses
                       : full<T>({}, reduction == Reduction::Mean ? total / total_weight : total);
    const double scale = reduction == Reduction::Mean ? 1.0 / total_weight : 1.0;
    record_function(
        "NllLossBackward0", result, {x},
        [x, t, lse = std::move(lse), row_weight = std::move(row_weight), N, C, scale, reduction](const TensorBase& grad) {
            const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
            Tensor<T> dx(make_contiguous_impl({N, C}, dtype_of<T>, x.device()));
            T* d = dx.data_ptr();
            const T* xp = x.data_ptr();
            run_vectorised([&] {
                for (int64_t r = 0; r < N; ++r) {
                    const double gr = convert<double>(g.data_ptr()[reduction == Reduction::None ? r : 0]);
                    const Cmp coef = static_cast<Cmp>(gr * row_weight[static_cast<size_t>(r)] * scale);
                    const Cmp l = lse[static_cast<size_t>(r)];
                    T* dr = d + r * C;
                    const T* xr = xp + r * C;
                    TENET_SIMD_LOOP
                    for (int64_t j = 0; j < C; ++j) dr[j] = static_cast<T>(coef * tenet::detail::exp(static_cast<Cmp>(xr[j]) - l));
                    if (row_weight[static_cast<size_t>(r)] != 0) {
                        const int64_t c = t.data_ptr()[r];
                        dr[c] = static_cast<T>(static_cast<Cmp>(dr[c]) - coef);
                    }
                }
            });
            return std::array<TensorBase, 1>{dx};
        },
        input);
    return result;
}

/// smooth_l1_loss's pointwise loss with beta 0: |input - target|, l1_loss's value, but with
/// PyTorch's SmoothL1LossBackward0 at beta 0, which is not l1_loss's gradient. Where input ==
/// target its kernel (x <= -beta ? -g : x >= beta ? g : x g / beta) gives the input -g, and
/// the target -g too (the target's gradient is the same kernel with the two swapped); l1_loss
/// gives 0. (With beta 0 where()'s other branch would divide by zero, its gradient NaN.)
template <class T>
Tensor<T> smooth_l1_beta0(const Tensor<T>& input, const Tensor<T>& target) {
    Tensor<T> d, loss;
    {
        NoGradGuard no_grad; // the node below is the loss's only history
        d = Tensor<T>(input - target);
        loss = Tensor<T>(abs(d));
    }
    record_function(
        "SmoothL1LossBackward0", loss, {},
        [d](const TensorBase& grad) {
            const Tensor<T> g(grad.impl_ptr());
            // A NaN difference falls through both tests to x g / 0: NaN, kept here by passing d on.
            return std::array<TensorBase, 2>{Tensor<T>(where(d <= 0, -g, where(d > 0, g, d))),
                                             Tensor<T>(where(d >= 0, -g, where(d < 0, g, d)))};
        },
        input, target);
    return loss;
}

}  // namespace detail

/// F.mse_loss(input, target, reduction): the mean (or sum, or none) of (input - target)^2.
template <class T>
Tensor<T> mse_loss(const Tensor<T>& input, const detail::Same<T>& target, std::string_view reduction = "mean") {
    detail::check_same_shape(input, target, "mse_loss");
    return detail::reduce_loss<T>(square(input - target), detail::parse_reduction(reduction, "mse_loss"));
}

/// F.l1_loss(input, target, reduction): |input - target|, reduced.
template <class T>
Tensor<T> l1_loss(const Tensor<T>& input, const detail::Same<T>& target, std::string_view reduction = "mean") {
    detail::check_same_shape(input, target, "l1_loss");
    return detail::reduce_loss<T>(abs(input - target), detail::parse_reduction(reduction, "l1_loss"));
}

/// F.binary_cross_entropy(input, target, weight, reduction): input holds probabilities; its
/// logarithms are clamped at -100, as PyTorch's.
template <class T>
Tensor<T> binary_cross_entropy(const Tensor<T>& input, const detail::Same<T>& target, const detail::Same<T>& weight = {},
                               std::string_view reduction = "mean") {
    detail::check_same_shape(input, target, "binary_cross_entropy");
    const auto r = detail::parse_reduction(reduction, "binary_cross_entropy");
    const auto loss = -(target * clamp_min(log(input), -100) + (1 - target) * clamp_min(log(1 - input), -100));
    if (weight.defined()) return detail::reduce_loss<T>(loss * weight, r);
    return detail::reduce_loss<T>(loss, r);
}

/// F.binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight): sigmoid and
/// binary cross entropy in one stable formula.
template <class T>
Tensor<T> binary_cross_entropy_with_logits(const Tensor<T>& input, const detail::Same<T>& target,
                                           const detail::Same<T>& weight = {}, std::string_view reduction = "mean",
                                           const detail::Same<T>& pos_weight = {}) {
    detail::check_same_shape(input, target, "binary_cross_entropy_with_logits");
    const auto r = detail::parse_reduction(reduction, "binary_cross_entropy_with_logits");
    // log(1 + exp(-x)) = max(-x, 0) + log1p(exp(-|x|)): no overflow for any x.
    const auto softplus_neg = clamp_min(-input, 0) + log1p(exp(-abs(input)));
    Tensor<T> w = weight.defined() ? weight : ones_like(input);
    if (pos_weight.defined()) {
        const auto lw = 1 + (pos_weight - 1) * target;
        return detail::reduce_loss<T>(w * ((1 - target) * input + lw * softplus_neg), r);
    }
    return detail::reduce_loss<T>(w * ((1 - target) * input + softplus_neg), r);
}

/// F.nll_loss(input, target, weight, ignore_index, reduction): input holds log-probabilities
/// [N, C] or [N, C, d1, ...] (or [C]), target the class indices [N] or [N, d1, ...]; mean divides
/// by the total weight of the targets that are not ignore_index. An index outside [0, C) raises
/// index_error.
template <class T>
Tensor<T> nll_loss(const Tensor<T>& input, const Tensor<int64_t>& target, const detail::Same<T>& weight = {},
                   int64_t ignore_index = -100, std::string_view reduction = "mean") {
    return detail::nll_loss_impl(input, target, weight, ignore_index, detail::parse_reduction(reduction, "nll_loss"));
}

/// F.cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing) with class
/// indices: log_softmax over dim 1 (dim 0 for an unbatched [C] input), then nll_loss; label
/// smoothing mixes in the mean of -log p over the classes, as PyTorch.
template <class T>
Tensor<T> cross_entropy(const Tensor<T>& input, const Tensor<int64_t>& target, const detail::Same<T>& weight = {},
                        int64_t ignore_index = -100, std::string_view reduction = "mean",
                        double label_smoothing = 0.0) {
    const auto r = detail::parse_reduction(reduction, "cross_entropy");
    if (label_smoothing < 0 || label_smoothing > 1)
        detail::fail<value_error>("cross_entropy: label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    if (label_smoothing == 0 && input.dim() == 2 && input.device().is_cpu())
        return detail::cross_entropy_rows(input, target, weight, ignore_index, r);
    const int64_t class_dim = input.dim() >= 2 ? 1 : 0;
    const Tensor<T> logp = log_softmax(input, class_dim);
    Tensor<T> nll = detail::nll_loss_impl(logp, target, weight, ignore_index, r);
    if (label_smoothing == 0) return nll;
    const int64_t C = input.size(class_dim);
    IntArray class_shape(static_cast<size_t>(input.dim()), 1);
    class_shape[static_cast<size_t>(class_dim)] = C;
    Tensor<T> smooth = weight.defined() ? Tensor<T>(-sum(logp * weight.view(class_shape), class_dim))
                                        : Tensor<T>(-sum(logp, class_dim));
    const Tensor<T> kept = cast<T>(target != ignore_index);
    smooth = Tensor<T>(smooth * kept);
    Tensor<T> term;
    if (r == detail::Reduction::Mean) {
        // Divided by the kept targets' total weight (their number without weights), as nll_loss.
        term = Tensor<T>(sum(smooth) / detail::target_weights(target, weight, C, ignore_index, "cross_entropy").total);
    } else if (r == detail::Reduction::Sum) {
        term = sum(smooth);
    } else {
        term = smooth;
    }
    return Tensor<T>((1 - label_smoothing) * nll + term * (label_smoothing / static_cast<double>(C)));
}

/// F.cross_entropy with class probabilities as the target (input's shape): -sum(target *
/// log_softmax(input)) over the classes, smoothed as PyTorch; mean divides by the number of
/// samples (every element but the class dim).
template <class T>
Tensor<T> cross_entropy(const Tensor<T>& input, const detail::Same<T>& target, const detail::Same<T>& weight = {},
                        int64_t ignore_index = -100, std::string_view reduction = "mean",
                        double label_smoothing = 0.0) {
    (void)ignore_index;  // PyTorch ignores it for probability targets too
    const auto r = detail::parse_reduction(reduction, "cross_entropy");
    detail::check_same_shape(input, target, "cross_entropy");
    const int64_t class_dim = input.dim() >= 2 ? 1 : 0;
    const int64_t C = input.size(class_dim);
    const Tensor<T> logp = log_softmax(input, class_dim);
    const Tensor<T> p = label_smoothing > 0 ? Tensor<T>(target * (1 - label_smoothing) + label_smoothing / static_cast<double>(C))
                                            : target;
    IntArray class_shape(static_cast<size_t>(input.dim()), 1);
    class_shape[static_cast<size_t>(class_dim)] = C;
    const Tensor<T> terms = weight.defined() ? Tensor<T>(logp * weight.view(class_shape) * p) : Tensor<T>(logp * p);
    if (r == detail::Reduction::None) return Tensor<T>(-sum(terms, class_dim));
    const Tensor<T> total = sum(terms);
    if (r == detail::Reduction::Sum) return Tensor<T>(-total);
    return Tensor<T>(-total / static_cast<double>(input.numel() / std::max<int64_t>(C, 1)));
}

// ---- More losses, as expressions -----------------------------------------------------------

/// F.smooth_l1_loss(input, target, reduction, beta): with d = input - target, 0.5 d^2 / beta where
/// |d| < beta, else |d| - 0.5 beta. beta 0 gives l1_loss's value with PyTorch's gradient, which
/// is not l1_loss's where d == 0 (detail::smooth_l1_beta0). A negative beta raises value_error.
template <class T>
Tensor<T> smooth_l1_loss(const Tensor<T>& input, const detail::Same<T>& target, std::string_view reduction = "mean",
                         double beta = 1.0) {
    detail::check_same_shape(input, target, "smooth_l1_loss");
    const auto r = detail::parse_reduction(reduction, "smooth_l1_loss");
    if (beta < 0)
        detail::fail<value_error>("smooth_l1_loss: beta must not be negative, got ", beta);
    if (beta == 0)
        return detail::reduce_loss<T>(detail::smooth_l1_beta0(input, target), r);
    const auto d = input - target;
    return detail::reduce_loss<T>(where(abs(d) < beta, 0.5 * square(d) / beta, abs(d) - 0.5 * beta), r);
}

/// F.huber_loss(input, target, reduction, delta): with d = input - target, 0.5 d^2 where
/// |d| < delta, else delta (|d| - 0.5 delta). delta <= 0 raises value_error.
template <class T>
Tensor<T> huber_loss(const Tensor<T>& input, const detail::Same<T>& target, std::string_view reduction = "mean",
                     double delta = 1.0) {
    detail::check_same_shape(input, target, "huber_loss");
    const auto r = detail::parse_reduction(reduction, "huber_loss");
    if (!(delta > 0))
        detail::fail<value_error>("huber_loss: delta must be positive, got ", delta);
    const auto d = input - target;
    return detail::reduce_loss<T>(where(abs(d) < delta, 0.5 * square(d), delta * (abs(d) - 0.5 * delta)), r);
}

/// F.kl_div(input, target, reduction, log_target): input holds log-probabilities; the pointwise
/// loss is target * (log(target) - input), 0 where target is 0 (PyTorch's xlogy; a negative
/// target gives NaN, as there), or exp(target) * (target - input) with log_target. "mean"
/// divides by the number of elements, "batchmean" by input.size(0) (a 0-d input: the sum), as
/// PyTorch. input and target broadcast, as PyTorch's.
template <class T>
Tensor<T> kl_div(const Tensor<T>& input, const detail::Same<T>& target, std::string_view reduction = "mean",
                 bool log_target = false) {
    const bool batchmean = reduction == "batchmean";
    if (!batchmean && reduction != "mean" && reduction != "sum" && reduction != "none")
        detail::fail<value_error>("kl_div: ", reduction,
                                  " is not a valid value for reduction (\"mean\", \"batchmean\", \"sum\" or \"none\")");
    const auto r = batchmean ? detail::Reduction::Sum : detail::parse_reduction(reduction, "kl_div");
    Tensor<T> loss = log_target
                         ? detail::reduce_loss<T>(exp(target) * (target - input), r)
                         : detail::reduce_loss<T>(detail::composed_where(target == 0, 0, target * log(target)) - target * input, r);
    if (batchmean && input.dim() > 0)
        return Tensor<T>(loss / static_cast<double>(input.size(0)));
    return loss;
}

// ---- Encoding, normalisation, layers ---------------------------------------------------------

/// F.one_hot(tensor, num_classes): int64 [*tensor.sizes(), num_classes], 1 at each value's
/// index and 0 elsewhere; num_classes -1 takes the largest value + 1. A negative value, or one
/// >= num_classes, raises index_error; num_classes <= 0 on an empty tensor raises value_error
/// (PyTorch cannot infer the class count there either).
inline Tensor<int64_t> one_hot(const Tensor<int64_t>& tensor, int64_t num_classes = -1) {
    IntArray shape = tensor.sizes();
    const TensorOptions options = TensorOptions().device(tensor.device());
    if (tensor.numel() == 0) {
        if (num_classes <= 0)
            detail::fail<value_error>("one_hot: cannot infer the number of classes from an empty tensor of size ",
                                      tensor.sizes(), " (num_classes = ", num_classes, ")");
        shape.push_back(num_classes);
        return zeros<int64_t>(shape, options);
    }
    const int64_t lowest = tenet::min(tensor).item(), highest = tenet::max(tensor).item();
    if (lowest < 0)
        detail::fail<index_error>("one_hot: class values must be non-negative, got ", lowest);
    if (num_classes == -1)
        num_classes = highest + 1;
    else if (highest >= num_classes)
        detail::fail<index_error>("one_hot: class values must be smaller than num_classes (", num_classes, "), got ",
                                  highest);
    // Each value against 0..num_classes-1 along a new last dim: one broadcast comparison.
    return Tensor<int64_t>(cast<int64_t>(tensor.unsqueeze(-1) == arange(num_classes, options)));
}

/// F.normalize(input, p, dim, eps): input / max(||input||_p along dim, eps), the norm kept as a
/// dim of size 1 and broadcast back, as PyTorch's.
template <class T>
Tensor<T> normalize(const Tensor<T>& input, double p = 2.0, int64_t dim = 1, double eps = 1e-12) {
    return Tensor<T>(input / clamp_min(norm(input, p, dim, true), eps));
}

/// F.linear(input, weight, bias): input.matmul(weight.t()) + bias; input [*, in], weight
/// [out, in] (or [in]), bias broadcast to the product (usually [out]).
template <class T>
Tensor<T> linear(const Tensor<T>& input, const detail::Same<T>& weight, const detail::Same<T>& bias = {}) {
    Tensor<T> y = matmul(input, weight.t());
    if (!bias.defined())
        return y;
    return Tensor<T>(y + bias);
}

/// F.dropout(input, p, training) with the Generator `gen`: each element zeroed with probability
/// p (kept where rand_like(input, gen) < 1 - p, PyTorch's bernoulli_(1 - p)) and the kept ones
/// multiplied by T(1) / T(1 - p), the factor PyTorch's mask holds. Not training, p 0 or an
/// empty input: the input itself; p 1: input * 0 (NaN stays NaN), as PyTorch. p outside [0, 1]
/// raises value_error. (PyTorch's `inplace` is not offered.)
template <class T>
Tensor<T> dropout(const Tensor<T>& input, double p, bool training, Generator& gen) {
    if (!(p >= 0 && p <= 1))
        detail::fail<value_error>("dropout probability has to be between 0 and 1, but got ", p);
    if (!training || p == 0 || input.numel() == 0)
        return input;
    if (p == 1)
        return Tensor<T>(input * T(0));
    const T scale = static_cast<T>(T(1) / static_cast<T>(1 - p));
    const Tensor<T> u = rand_like(input, gen);
    // The mask is a constant of the graph: the input's gradient is g * mask.
    return Tensor<T>(input * (cast<T>(u < 1 - p) * scale));
}
/// F.dropout with the default generator.
template <class T>
Tensor<T> dropout(const Tensor<T>& input, double p = 0.5, bool training = true) {
    return dropout(input, p, training, default_generator());
}

/// F.layer_norm(input, normalized_shape, weight, bias, eps): each slice over the last
/// normalized_shape.size() dims (which must equal normalized_shape) shifted by its mean and
/// divided by sqrt(its biased variance + eps), then * weight + bias (each of normalized_shape).
/// Shapes that do not fit raise value_error.
template <class T>
Tensor<T> layer_norm(const Tensor<T>& input, const IntArray& normalized_shape, const detail::Same<T>& weight = {},
                     const detail::Same<T>& bias = {}, double eps = 1e-5) {
    const char* op = "layer_norm";
    const auto k = static_cast<int64_t>(normalized_shape.size());
    const int64_t nd = input.dim();
    if (k == 0)
        detail::fail<value_error>(op, ": expected normalized_shape to have at least one element, got ",
                                  normalized_shape);
    if (weight.defined() && weight.sizes() != normalized_shape)
        detail::fail<value_error>(op, ": expected weight of the shape of normalized_shape (", normalized_shape,
                                  "), got weight of shape ", weight.sizes());
    if (bias.defined() && bias.sizes() != normalized_shape)
        detail::fail<value_error>(op, ": expected bias of the shape of normalized_shape (", normalized_shape,
                                  "), got bias of shape ", bias.sizes());
    bool fits = nd >= k;
    for (int64_t i = 0; fits && i < k; ++i)
        fits = input.size(nd - k + i) == normalized_shape[static_cast<size_t>(i)];
    if (!fits)
        detail::fail<value_error>(op, ": given normalized_shape=", normalized_shape,
                                  ", expected an input whose last dims are that shape, but got input of size ",
                                  input.sizes());
    IntArray dims;
    for (int64_t d = nd - k; d < nd; ++d)
        dims.push_back(d);
    const auto [variance, average] = var_mean(input, dims, 0, true);
    const auto normed = (input - average) * rsqrt(variance + eps);
    if (weight.defined() && bias.defined())
        return Tensor<T>(normed * weight + bias);
    if (weight.defined())
        return Tensor<T>(normed * weight);
    if (bias.defined())
        return Tensor<T>(normed + bias);
    return Tensor<T>(normed);
}

/// F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps): input
/// [N, C] or [N, C, *] normalised per channel (dim 1), then * weight + bias (C each). Training:
/// by the batch's mean and biased variance, and running_mean / running_var (when given) are
/// updated in place to (1 - momentum) * running + momentum * the batch's mean / unbiased
/// variance; not training: by running_mean and running_var (required). One value per channel
/// in training, statistics that are not C elements, or an input of fewer than 2 dims raise
/// value_error. The running statistics get no gradient, as in PyTorch.
template <class T>
Tensor<T> batch_norm(const Tensor<T>& input, detail::Same<T> running_mean, detail::Same<T> running_var,
                     const detail::Same<T>& weight = {}, const detail::Same<T>& bias = {}, bool training = false,
                     double momentum = 0.1, double eps = 1e-5) {
    const char* op = "batch_norm";
    const int64_t nd = input.dim();
    if (nd < 2)
        detail::fail<value_error>(op, ": expected an input of size [N, C] or [N, C, *], got ", input.sizes());
    const int64_t C = input.size(1);
    int64_t per_channel = input.size(0); // the values of each channel: N times the sizes after C
    for (int64_t d = 2; d < nd; ++d)
        per_channel *= input.size(d);
    if (training && per_channel == 1)
        detail::fail<value_error>(op, ": expected more than 1 value per channel when training, got input size ",
                                  input.sizes());
    const auto check = [&](const Tensor<T>& t, const char* name) {
        if (t.defined() && t.numel() != C)
            detail::fail<value_error>(op, ": ", name, " should contain ", C, " elements not ", t.numel());
    };
    check(running_mean, "running_mean");
    check(running_var, "running_var");
    check(weight, "weight");
    check(bias, "bias");
    if (!training && !(running_mean.defined() && running_var.defined()))
        detail::fail<value_error>(op, ": running_mean and running_var must be defined in evaluation mode");
    IntArray channel_shape(static_cast<size_t>(nd), 1); // [1, C, 1, ...]: broadcasts over the rest
    channel_shape[1] = C;
    const auto affine = [&](const auto& normed) {
        if (weight.defined() && bias.defined())
            return Tensor<T>(normed * weight.reshape(channel_shape) + bias.reshape(channel_shape));
        if (weight.defined())
            return Tensor<T>(normed * weight.reshape(channel_shape));
        if (bias.defined())
            return Tensor<T>(normed + bias.reshape(channel_shape));
        return Tensor<T>(normed);
    };
    // An empty batch has no statistics: PyTorch returns it through weight and bias and updates nothing.
    if (input.numel() == 0)
        return affine(input);
    if (!training)
        return affine((input - running_mean.detach().reshape(channel_shape)) *
                      rsqrt(running_var.detach().reshape(channel_shape) + eps));
    IntArray dims{0};
    for (int64_t d = 2; d < nd; ++d)
        dims.push_back(d);
    const auto [variance, average] = var_mean(input, dims, 0, true);
    if (running_mean.defined() || running_var.defined()) {
        NoGradGuard no_grad;
        const double unbias = static_cast<double>(per_channel) / static_cast<double>(per_channel - 1);
        if (running_mean.defined())
            running_mean.copy_(
                Tensor<T>((1 - momentum) * running_mean + momentum * average.detach().reshape(running_mean.sizes())));
        if (running_var.defined())
            running_var.copy_(Tensor<T>((1 - momentum) * running_var +
                                        (momentum * unbias) * variance.detach().reshape(running_var.sizes())));
    }
    return affine((input - average) * rsqrt(variance + eps));
}

}  // namespace tenet::nn::functional
