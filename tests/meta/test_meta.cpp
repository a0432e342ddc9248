// Meta tensors against PyTorch 1.13's (meta_cases.txt, written by tests/golden/gen_meta.py):
// creation, views, pointwise expressions with type promotion, reductions, matmul, joins, softmax
// and nn.functional propagate sizes, strides and dtype without data; data access and a mix with
// host tensors raise; printing shows `tensor(..., device='meta', size=(...))`. The cases that need
// autograd are in test_meta_grad.cpp.
#include "meta_check.hpp"

#include <tenet/tenet.hpp>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace tenet::indexing;
namespace F = tenet::nn::functional;
using meta_check::Builder;
using meta_check::meta;

/// A result as a handle: an expression evaluated (on the meta device: nothing runs).
template <class E>
TensorBase ev(const E& e) {
    if constexpr (TensorExpression<E>) return e.eval();
    else return e;
}

Tensor<float> X() { return meta({2, 3, 4}); }
Tensor<float> A() { return meta({2, 3}); }
Tensor<float> R() { return meta({4, 5}); }
Tensor<int64_t> I() { return meta<int64_t>({4, 5}); }

std::map<std::string, Builder> forward_cases() {
    return {
        // ---- creation
        {"empty", [] { return empty({2, 3}, TensorOptions().device("meta")); }},
        {"zeros_f64", [] { return zeros({2, 3}, kFloat64, kMeta); }},
        {"ones_int64", [] { return ones({4}, kInt64, Device("meta")); }},
        {"full_int", [] { return full({2, 2}, 7, kMeta); }},
        {"full_float", [] { return full({3}, 1.5, kMeta); }},
        {"rand", [] { return rand({2, 3, 4}, kMeta); }},
        {"randn_f64", [] { return randn({5}, kFloat64, kMeta); }},
        {"randint", [] { return randint(0, 10, {3, 4}, kMeta); }},
        {"randperm", [] { return randperm(6, kMeta); }},
        {"arange_int", [] { return arange(10, kMeta); }},
        {"arange_float", [] { return arange(0.0, 1.0, 0.1, kMeta); }},
        {"linspace", [] { return linspace(0, 1, 7, kMeta); }},
        {"eye", [] { return eye(3, 4, kMeta); }},
        {"empty_strided", [] { return empty_strided({2, 3}, {1, 2}, kMeta); }},
        {"zeros_like_transposed", [] { return zeros_like(A().t()); }},
        {"rand_like", [] { return rand_like(R()); }},
        {"full_like_int", [] { return full_like(meta<int64_t>({3}), 2); }},
        {"tensor_literal", [] { return tensor({{1, 2}, {3, 4}}, kMeta); }},
        {"to_meta", [] { return ones({2, 3}).to("meta"); }},
        {"to_meta_transposed", [] { return ones({2, 3}).t().to(kMeta); }},
        {"to_meta_f64", [] { return ones({2, 3}).to(Device("meta"), kFloat64); }},
        {"meta_to_f16", [] { return A().to(kFloat16); }},
        {"meta_to_meta", [] { return A().to("meta"); }},
        {"meta_index_dropped", [] { return ev(empty({2}, "meta:0") + A().index({0, Slice(None, 2)})); }},
        // ---- views
        {"view", [] { return X().view({6, 4}); }},
        {"reshape", [] { return X().reshape({4, -1}); }},
        {"reshape_copy", [] { return X().transpose(0, 2).reshape({-1}); }},
        {"transpose", [] { return X().transpose(0, 2); }},
        {"permute", [] { return X().permute({2, 0, 1}); }},
        {"t", [] { return A().t(); }},
        {"narrow", [] { return X().narrow(2, 1, 2); }},
        {"select", [] { return X().select(1, 2); }},
        {"index_int", [] { return X()[1]; }},
        {"index_slice", [] { return X().index({Slice(), Slice(1, 3)}); }},
        {"index_step", [] { return X().index({Ellipsis, Slice(None, None, 2)}); }},
        {"index_mixed", [] { return X().index({None, 0, Slice(), -1}); }},
        {"expand", [] { return meta({3, 1}).expand({3, 4}); }},
        {"expand_new_dims", [] { return meta({3, 1}).expand({2, 3, 4}); }},
        {"squeeze", [] { return meta({1, 3, 1}).squeeze(); }},
        {"squeeze_dim", [] { return meta({1, 3, 1}).squeeze(0); }},
        {"unsqueeze", [] { return A().unsqueeze(1); }},
        {"flatten", [] { return X().flatten(1); }},
        {"contiguous", [] { return X().transpose(0, 2).contiguous(); }},
        {"chunk", [] { return X().chunk(2, 2)[1]; }},
        {"split", [] { return X().split(1, 1)[2]; }},
        {"unbind", [] { return X().unbind(1)[0]; }},
        {"flip", [] { return flip(X(), {0, 2}); }},
        {"flip_transposed", [] { return flip(X().transpose(0, 2), {1}); }},
        {"error:view_bad_shape", [] { return X().view({5, 5}); }},
        {"error:view_of_transposed", [] { return X().transpose(0, 2).view({-1}); }},
        {"error:index_out_of_range", [] { return X()[2]; }},
        // ---- pointwise expressions
        {"add_broadcast", [] { return ev(A() + meta({3})); }},
        {"broadcast_three", [] { return ev(meta({2, 1, 3}) + meta({4, 1})); }},
        {"mul_scalar", [] { return ev(A() * 2); }},
        {"int_plus_float_scalar", [] { return ev(I() + 2.5); }},
        {"int_true_divide", [] { return ev(I() / I()); }},
        {"int32_times_f64", [] { return ev(meta<int32_t>({4, 5}) * meta<double>({5})); }},
        {"f16_times_f32", [] { return ev(meta<Half>({2, 3}) * A()); }},
        {"compare", [] { return ev(A() > 0); }},
        {"logical_and", [] { return ev((A() > 0) & (A() < 1)); }},
        {"sin_of_int", [] { return ev(sin(I())); }},
        {"abs_of_int", [] { return ev(abs(I())); }},
        {"where", [] { return ev(where(A() > 0, A(), meta({3}))); }},
        {"clamp", [] { return ev(A().clamp(0, 1)); }},
        {"relu", [] { return ev(relu(A())); }},
        {"sigmoid_f64", [] { return ev(sigmoid(meta<double>({2, 3}))); }},
        {"pow", [] { return ev(A().pow(2)); }},
        {"add_inplace", [] { return TensorBase(A().add_(1)); }},
        {"with_cpu_0d", [] { return ev(A() + tensor(2.0)); }},
        {"cpu_0d_first", [] { return ev(tensor(2.0) + A()); }},
        {"cpu_0d_with_meta_0d", [] { return ev(tensor(2.0) + meta({})); }},
        {"error:with_cpu_1d", [] { return ev(A() + ones({3})); }},
        {"error:cpu_1d_first", [] { return ev(ones({3}) + A()); }},
        {"error:cpu_inplace_meta", [] { return TensorBase(ones({3}).add_(meta({3}))); }},
        {"error:cpu_inplace_meta_view", [] { return TensorBase(ones({3}).add_(meta({4}).index({Slice(1, None)}))); }},
        {"error:broadcast_mismatch", [] { return ev(A() + meta({4})); }},
        // ---- reductions
        {"sum_all", [] { return ev(R().sum()); }},
        {"sum_dim", [] { return ev(R().sum(1)); }},
        {"sum_keepdim", [] { return ev(R().sum(0, true)); }},
        {"sum_dims", [] { return ev(X().sum(IntArray{0, 2})); }},
        {"sum_int", [] { return ev(I().sum()); }},
        {"sum_bool", [] { return ev((R() > 0).sum(1)); }},
        {"sum_expression", [] { return ev((R() * 2 + 1).sum(0)); }},
        {"mean", [] { return ev(R().mean()); }},
        {"mean_dim", [] { return ev(X().mean(1)); }},
        {"var", [] { return ev(R().var(1)); }},
        {"std_keepdim", [] { return ev(R().std(0, 1, true)); }},
        {"max_all", [] { return ev(R().max()); }},
        {"max_dim_values", [] { return TensorBase(R().max(1).values); }},
        {"max_dim_indices", [] { return TensorBase(R().max(1).indices); }},
        {"min_dim_keepdim", [] { return TensorBase(R().min(0, true).values); }},
        {"argmax", [] { return TensorBase(R().argmax(1)); }},
        {"argmax_all", [] { return TensorBase(R().argmax()); }},
        {"amax", [] { return ev(X().amax(1)); }},
        {"prod", [] { return ev(R().prod(1)); }},
        {"norm", [] { return ev(R().norm()); }},
        {"logsumexp", [] { return ev(R().logsumexp(1)); }},
        {"all", [] { return ev((R() > 0).all()); }},
        {"any_dim", [] { return ev((R() > 0).any(1)); }},
        {"error:mean_of_int", [] { return ev(I().mean()); }},
        // ---- matmul
        {"mm", [] { return ev(matmul(meta({3, 4}), meta({4, 5}))); }},
        {"mm_f64", [] { return ev(mm(meta<double>({3, 4}), meta<double>({4, 5}))); }},
        {"mv", [] { return ev(mv(meta({3, 4}), meta({4}))); }},
        {"dot", [] { return ev(dot(meta({4}), meta({4}))); }},
        {"matmul_1d_2d", [] { return ev(matmul(meta({4}), meta({4, 5}))); }},
        {"matmul_2d_1d", [] { return ev(matmul(meta({3, 4}), meta({4}))); }},
        {"matmul_3d_2d", [] { return ev(matmul(X(), meta({4, 5}))); }},
        {"matmul_2d_3d", [] { return ev(matmul(meta({5, 3}), X())); }},
        {"matmul_broadcast", [] { return ev(matmul(meta({2, 1, 3, 4}), meta({5, 4, 6}))); }},
        {"matmul_1d_3d", [] { return ev(matmul(meta({3}), X())); }},
        {"matmul_transposed", [] { return ev(matmul(meta({4, 3}).t(), meta({4, 5}))); }},
        {"bmm", [] { return ev(bmm(X(), meta({2, 4, 5}))); }},
        {"error:mm_mismatch", [] { return ev(matmul(meta({3, 4}), meta({5, 6}))); }},
        {"error:matmul_with_cpu", [] { return ev(matmul(meta({3, 4}), ones({4, 5}))); }},
        // ---- joins
        {"cat", [] { return TensorBase(cat(std::vector{A(), meta({4, 3})})); }},
        {"cat_dim1", [] { return TensorBase(cat(std::vector{A(), meta({2, 5})}, 1)); }},
        {"stack", [] { return TensorBase(stack(std::vector{A(), A()})); }},
        {"stack_last", [] { return TensorBase(stack(std::vector{A(), A(), A()}, 2)); }},
        {"hstack", [] { return TensorBase(hstack(std::vector{A(), A()})); }},
        {"vstack", [] { return TensorBase(vstack(std::vector{meta({3}), meta({3})})); }},
        {"error:cat_mismatch", [] { return TensorBase(cat(std::vector{A(), meta({2, 4})})); }},
        {"error:cat_with_cpu", [] { return TensorBase(cat(std::vector{A(), ones({2, 3})})); }},
        // ---- softmax and nn.functional
        {"softmax", [] { return TensorBase(softmax(R(), 1)); }},
        {"log_softmax_dim0", [] { return TensorBase(log_softmax(X(), 0)); }},
        {"softmax_f64", [] { return TensorBase(softmax(meta<double>({3, 4}), -1)); }},
        {"linear", [] { return TensorBase(F::linear(meta({5, 3}), meta({4, 3}), meta({4}))); }},
        {"linear_no_bias", [] { return TensorBase(F::linear(X(), meta({6, 4}))); }},
        {"gelu", [] { return ev(gelu(A())); }},
        {"mse_loss", [] { return TensorBase(F::mse_loss(A(), A())); }},
        {"mse_loss_none", [] { return TensorBase(F::mse_loss(A(), A(), "none")); }},
        {"cross_entropy", [] { return TensorBase(F::cross_entropy(R(), meta<int64_t>({4}))); }},
        {"cross_entropy_none",
         [] { return TensorBase(F::cross_entropy(R(), meta<int64_t>({4}), {}, -100, "none")); }},
        {"layer_norm", [] { return TensorBase(F::layer_norm(X(), {4})); }},
        {"dropout", [] { return TensorBase(F::dropout(A(), 0.5, true)); }},
        {"error:cross_entropy_bad_target", [] { return TensorBase(F::cross_entropy(R(), meta<int64_t>({3}))); }},
        // ---- data access
        {"copy_into_meta", [] { return TensorBase(A().copy_(ones({3}))); }},
        {"error:item", [] { return tensor(meta({}).item()); }},
        {"error:tolist", [] { return (void)A().tolist(), TensorBase(); }},
        {"error:cpu", [] { return TensorBase(A().cpu()); }},
        {"error:to_cpu", [] { return TensorBase(A().to("cpu")); }},
        {"error:copy_to_cpu", [] { return TensorBase(ones({2, 3}).copy_(A())); }},
        // ---- printing
        {"print:float", [] { return TensorBase(A()); }},
        {"print:f64", [] { return TensorBase(meta<double>({2, 3})); }},
        {"print:int64", [] { return TensorBase(meta<int64_t>({5})); }},
        {"print:bool", [] { return TensorBase(meta<bool>({5})); }},
        {"print:f16", [] { return TensorBase(meta<Half>({1, 2})); }},
        {"print:complex64", [] { return TensorBase(meta<complex<float>>({2})); }},
        {"print:0d", [] { return TensorBase(meta({})); }},
        {"print:empty", [] { return TensorBase(meta({0})); }},
        {"print:empty_2d", [] { return TensorBase(meta({2, 0, 3})); }},
        {"print:long", [] { return TensorBase(meta<double>({1000, 1000, 1000, 1000, 1000, 1000})); }},
        {"print:view", [] { return TensorBase(X().transpose(0, 2)[1]); }},
    };
}

bool forward_case(const std::string& name) { return name.rfind("grad:") == std::string::npos; }

TEST_CASE("meta: golden cases from PyTorch (creation, views, expressions, reductions, matmul, joins, nn)") {
    meta_check::run_cases(meta_check::cases_file(), forward_cases(), forward_case);
}

TEST_CASE("meta: Device(\"meta\"), is_meta, and a storage with no buffer") {
    const Device d("meta");
    CHECK(d.is_meta());
    CHECK(d.type() == kMeta);
    CHECK(d.str() == "meta");
    CHECK(!d.is_cpu());
    CHECK(!d.is_cuda());
    const auto t = empty({1000, 1000, 1000}, kFloat64, kMeta);  // 8 GB, allocated nowhere
    CHECK(t.is_meta());
    CHECK(t.device() == Device(kMeta));
    CHECK(t.nbytes() == 8'000'000'000);
    CHECK(t.impl().storage->nbytes() == 8'000'000'000);  // as PyTorch's untyped_storage().nbytes()
    CHECK(t.impl().storage->data_or_null() == nullptr);
    CHECK(!ones({2}).is_meta());
}

TEST_CASE("meta: data access raises device_error naming the op") {
    using Catch::Matchers::Contains;
    const auto m = meta({2, 3});
    CHECK_THROWS_WITH(meta({}).item<float>(), Contains("item: Cannot copy out of meta tensor; no data!"));
    CHECK_THROWS_WITH(m.to_vector(), Contains("to_vector: Cannot copy out of meta tensor; no data!"));
    CHECK_THROWS_WITH(m.cpu(), Contains("to: Cannot copy out of meta tensor; no data!"));
    CHECK_THROWS_WITH(m(0, 1), Contains("operator(): Cannot copy out of meta tensor; no data!"));
    CHECK_THROWS_AS(m.data_ptr(), device_error);
    CHECK_THROWS_WITH(m.data_ptr(), Contains("meta tensor"));
    // An op without a meta rule names itself rather than reading a null pointer.
    // (In a TU with the device evaluator the device kernel asks for the data first: the same words.)
    CHECK_THROWS_WITH(sort(m, 1), Contains("not supported on meta tensors"));
    CHECK_THROWS_WITH(cumsum(m, 1), Contains("not supported on meta tensors"));
    CHECK_THROWS_AS(nonzero(m), device_error);
    CHECK_THROWS_AS(m.index({m > 0}), device_error);
    // The order statistics and counting that run on devices name themselves on meta too.
    CHECK_THROWS_WITH(quantile(m, 0.5, 1), Contains("quantile: not supported on meta tensors"));
    CHECK_THROWS_WITH(unique(m), Contains("unique: not supported on meta tensors"));
    CHECK_THROWS_WITH(m.histc(4), Contains("histc(): not supported on meta tensors"));
    CHECK_THROWS_WITH(bincount(zeros<int64_t>({3}, Device("meta"))), Contains("bincount: not supported on meta tensors"));
    CHECK_THROWS_WITH(mode(m, 1), Contains("mode: not supported on meta tensors"));
    // Writing into a meta tensor is allowed and writes nothing (PyTorch's meta copy_ and fill_).
    auto w = meta({2, 3});
    w.fill_(1.5f);
    w.zero_();
    w.copy_(ones({2, 3}));
    CHECK(w.is_meta());
}

TEST_CASE("meta: the random generator does not advance for meta tensors, as PyTorch's") {
    manual_seed(0);
    const auto a = rand({3});
    manual_seed(0);
    (void)rand({5}, kMeta);
    (void)randn({5}, kMeta);
    (void)randperm(5, kMeta);
    CHECK(rand({3}).to_vector() == a.to_vector());
}

}}  // namespace TENET_TEST_FILE
