// Gradients of the linear algebra: gradcheck (float64 finite differences) over every
// differentiable op, batched and broadcast cases included; what is and is not recorded; and
// PyTorch-generated gradients (linalg_grad_cases.inc, from tests/golden/gen_linalg_grad.py).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include <tenet/tenet.hpp>

#include "../autograd/autograd_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using autograd_case::make_input;

// The golden cases' checks at relative 1e-10: the factorizations (Eigen here, LAPACK in PyTorch)
// round differently, by far less than this.
constexpr double kFactorizationTolerance = 1e-10;
void check_forward(const Tensor<double>& y, const IntArray& shape, const std::vector<double>& want) {
    autograd_case::check_forward(y, shape, want, kFactorizationTolerance);
}
void check_grad(const Tensor<double>& x, const std::vector<double>& want) {
    autograd_case::check_grad(x, want, kFactorizationTolerance);
}
using In = std::vector<Tensor<double>>;

namespace {

Tensor<double> uniform(const IntArray& shape, double lo = -1.0, double hi = 1.0) {
    return rand(shape, kFloat64) * (hi - lo) + lo;
}
/// Random entries plus 3 I in every matrix: far from singular.
Tensor<double> well_conditioned(const IntArray& shape) {
    return uniform(shape) + eye<double>(shape[shape.size() - 1]) * 3.0;
}
Tensor<double> symmetric(const Tensor<double>& x) { return Tensor<double>((x + x.transpose(-2, -1)) * 0.5); }

bool check(const std::function<Tensor<double>(const In&)>& f, const In& inputs) {
    return autograd::gradcheck(f, inputs);
}

}  // namespace

// ---- gradcheck ----------------------------------------------------------------------------

TEST_CASE("linalg gradcheck: matmul in every rank combination") {
    manual_seed(11);
    auto mm = [](const In& in) { return matmul(in[0], in[1]); };
    CHECK(check(mm, {uniform({3}), uniform({3})}));
    CHECK(check(mm, {uniform({2, 3}), uniform({3})}));
    CHECK(check(mm, {uniform({3}), uniform({3, 4})}));
    CHECK(check(mm, {uniform({2, 3}), uniform({3, 4})}));
    CHECK(check(mm, {uniform({2, 3, 4}), uniform({2, 4, 2})}));
    CHECK(check(mm, {uniform({2, 1, 3, 2}), uniform({3, 2, 2})}));  // batch dims broadcast both ways
    CHECK(check(mm, {uniform({2, 3, 4}), uniform({4, 2})}));
    CHECK(check(mm, {uniform({3, 4}), uniform({2, 4, 2})}));
    CHECK(check(mm, {uniform({4}), uniform({2, 4, 3})}));
    CHECK(check(mm, {uniform({2, 3, 4}), uniform({4})}));
    CHECK(check(mm, {uniform({1, 3, 4}), uniform({2, 4, 2})}));
}

TEST_CASE("linalg gradcheck: named products and transposed views") {
    manual_seed(12);
    CHECK(check([](const In& in) { return mm(in[0], in[1]); }, {uniform({2, 3}), uniform({3, 4})}));
    CHECK(check([](const In& in) { return mm(in[0].t(), in[1].t()); }, {uniform({3, 2}), uniform({4, 3})}));
    CHECK(check([](const In& in) { return bmm(in[0], in[1]); }, {uniform({2, 3, 4}), uniform({2, 4, 2})}));
    CHECK(check([](const In& in) { return mv(in[0], in[1]); }, {uniform({2, 3}), uniform({3})}));
    CHECK(check([](const In& in) { return dot(in[0], in[1]); }, {uniform({4}), uniform({4})}));
    CHECK(check([](const In& in) { return vdot(in[0], in[1]); }, {uniform({4}), uniform({4})}));
    CHECK(check([](const In& in) { return outer(in[0], in[1]); }, {uniform({3}), uniform({2})}));
    // An expression operand: the gradient flows through its own node too.
    CHECK(check([](const In& in) { return matmul(in[0] * 2.0 + 1.0, sin(in[1])); }, {uniform({2, 3}), uniform({3, 2})}));
    // The same tensor on both sides.
    CHECK(check([](const In& in) { return matmul(in[0], in[0].t()); }, {uniform({2, 3})}));
    CHECK(check([](const In& in) { return linalg::multi_dot({in[0], in[1], in[2]}); },
                {uniform({3}), uniform({3, 4}), uniform({4, 2})}));
}

TEST_CASE("linalg gradcheck: add forms with beta and alpha") {
    manual_seed(13);
    CHECK(check([](const In& in) { return addmm(in[0], in[1], in[2], 0.5, 2.0); },
                {uniform({4}), uniform({2, 3}), uniform({3, 4})}));
    CHECK(check([](const In& in) { return addmm(in[0], in[1], in[2]); }, {uniform({2, 1}), uniform({2, 3}), uniform({3, 4})}));
    CHECK(check([](const In& in) { return addmv(in[0], in[1], in[2], 1.5, -1.0); },
                {uniform({2}), uniform({2, 3}), uniform({3})}));
    CHECK(check([](const In& in) { return addbmm(in[0], in[1], in[2], 0.5, 2.0); },
                {uniform({2, 4}), uniform({3, 2, 3}), uniform({3, 3, 4})}));
    CHECK(check([](const In& in) { return baddbmm(in[0], in[1], in[2], 2.0, 0.5); },
                {uniform({1, 2, 4}), uniform({3, 2, 3}), uniform({3, 3, 4})}));
    CHECK(check([](const In& in) { return addr(in[0], in[1], in[2], 0.5, 3.0); },
                {uniform({2, 1}), uniform({2}), uniform({3})}));
}

TEST_CASE("linalg gradcheck: einsum") {
    manual_seed(14);
    CHECK(check([](const In& in) { return einsum("ij,jk->ik", {in[0], in[1]}); }, {uniform({2, 3}), uniform({3, 4})}));
    CHECK(check([](const In& in) { return einsum("bij,bjk->bik", {in[0], in[1]}); },
                {uniform({2, 3, 4}), uniform({2, 4, 2})}));
    CHECK(check([](const In& in) { return einsum("ii->i", {in[0]}); }, {uniform({3, 3})}));
    CHECK(check([](const In& in) { return einsum("ii", {in[0]}); }, {uniform({3, 3})}));
    CHECK(check([](const In& in) { return einsum("ij->ji", {in[0]}); }, {uniform({2, 3})}));
    CHECK(check([](const In& in) { return einsum("i,j->ij", {in[0], in[1]}); }, {uniform({2}), uniform({3})}));
    CHECK(check([](const In& in) { return einsum("ij,ij->", {in[0], in[1]}); }, {uniform({2, 3}), uniform({2, 3})}));
    CHECK(check([](const In& in) { return einsum("ij,jk,kl->il", {in[0], in[1], in[2]}); },
                {uniform({2, 3}), uniform({3, 4}), uniform({4, 2})}));
    // Size-1 dims broadcast against the other operand, and ellipsis batches.
    CHECK(check([](const In& in) { return einsum("bij,bjk->bik", {in[0], in[1]}); },
                {uniform({1, 2, 3}), uniform({2, 3, 2})}));
    CHECK(check([](const In& in) { return einsum("...ij,...j->...i", {in[0], in[1]}); },
                {uniform({2, 3, 4}), uniform({1, 4})}));
    CHECK(check([](const In& in) { return einsum("iij,jk->ik", {in[0], in[1]}); }, {uniform({2, 2, 3}), uniform({3, 2})}));
}

TEST_CASE("linalg gradcheck: inv det slogdet") {
    manual_seed(15);
    CHECK(check([](const In& in) { return linalg::inv(in[0]); }, {well_conditioned({3, 3})}));
    CHECK(check([](const In& in) { return linalg::inv(in[0]); }, {well_conditioned({2, 3, 3})}));
    CHECK(check([](const In& in) { return linalg::det(in[0]); }, {uniform({3, 3})}));
    CHECK(check([](const In& in) { return linalg::det(in[0]); }, {uniform({2, 2, 3, 3})}));
    // Singular (rank 2) and rank 1: the cofactor matrix is still the gradient.
    CHECK(check([](const In& in) { return linalg::det(in[0]); },
                {tensor({{1.0, 2.0, 3.0}, {2.0, 4.0, 6.0}, {0.5, -1.0, 2.0}}, kFloat64)}));
    CHECK(check([](const In& in) { return linalg::det(in[0]); },
                {tensor({{1.0, 2.0, 3.0}, {2.0, 4.0, 6.0}, {-1.0, -2.0, -3.0}}, kFloat64)}));
    CHECK(check([](const In& in) { return linalg::slogdet(in[0]).logabsdet; }, {uniform({2, 3, 3})}));
}

TEST_CASE("linalg gradcheck: solve with matrix and vector right-hand sides") {
    manual_seed(16);
    auto solve = [](const In& in) { return linalg::solve(in[0], in[1]); };
    CHECK(check(solve, {well_conditioned({3, 3}), uniform({3, 2})}));
    CHECK(check(solve, {well_conditioned({3, 3}), uniform({3})}));
    CHECK(check(solve, {well_conditioned({2, 3, 3}), uniform({2, 3})}));     // a batch of vectors
    CHECK(check(solve, {well_conditioned({2, 3, 3}), uniform({3})}));        // one vector for every matrix
    CHECK(check(solve, {well_conditioned({3, 3}), uniform({2, 3, 2})}));     // A broadcast over B's batch
    CHECK(check(solve, {well_conditioned({2, 1, 3, 3}), uniform({3, 3, 1})}));  // both broadcast
}

TEST_CASE("linalg gradcheck: eigh eigvalsh svdvals") {
    manual_seed(17);
    // eigh reads one triangle; the gradient is the symmetric one, so check through symmetrisation.
    CHECK(check([](const In& in) { return linalg::eigvalsh(symmetric(in[0])); }, {uniform({3, 3})}));
    CHECK(check([](const In& in) { return linalg::eigh(symmetric(in[0])).eigenvalues; }, {uniform({2, 3, 3})}));
    CHECK(check([](const In& in) { return linalg::eigvalsh(symmetric(in[0]), "U"); }, {uniform({3, 3})}));
    // Eigenvectors up to sign: V * V and V diag(w) V^T do not depend on it.
    CHECK(check(
        [](const In& in) {
            const auto V = linalg::eigh(symmetric(in[0])).eigenvectors;
            return Tensor<double>(V * V);
        },
        {uniform({2, 3, 3})}));
    CHECK(check(
        [](const In& in) {
            const auto r = linalg::eigh(symmetric(in[0]));
            return matmul(Tensor<double>(r.eigenvectors * Tensor<double>(exp(r.eigenvalues)).unsqueeze(-2)),
                          r.eigenvectors.t());
        },
        {uniform({3, 3})}));
    CHECK(check([](const In& in) { return linalg::svdvals(in[0]); }, {uniform({3, 4})}));
    CHECK(check([](const In& in) { return linalg::svdvals(in[0]); }, {uniform({2, 4, 3})}));
    CHECK(check([](const In& in) { return linalg::svdvals(in[0]); }, {uniform({3, 3})}));
}

TEST_CASE("linalg gradcheck: svd through sign-invariant functions") {
    manual_seed(26);
    // A column of U and the matching row of Vh may both flip sign: U Vh, U * U and Vh * Vh do not.
    auto uv = [](const In& in) {
        const auto r = linalg::svd(in[0], false);
        return matmul(r.U, Tensor<double>(r.Vh * Tensor<double>(exp(r.S)).unsqueeze(-1)));
    };
    auto uu = [](const In& in) {
        const auto r = linalg::svd(in[0], false);
        return Tensor<double>(r.U * r.U * 1.5 + r.S.unsqueeze(-2));
    };
    auto vv = [](const In& in) {
        const auto r = linalg::svd(in[0], false);
        return Tensor<double>(r.Vh * r.Vh);
    };
    for (const IntArray& shape : {IntArray{4, 3}, IntArray{3, 4}, IntArray{3, 3}, IntArray{2, 4, 2}}) {
        INFO("shape " << shape);
        const auto x = uniform(shape);
        CHECK(check(uv, {x}));
        CHECK(check(uu, {x}));
        CHECK(check(vv, {x}));
    }
    // Full matrices: the first k columns of U and rows of Vh carry the gradient.
    CHECK(check(
        [](const In& in) {
            const auto r = linalg::svd(in[0], true);
            const auto u = r.U.narrow(-1, 0, 3);
            return Tensor<double>(u * u + r.S.unsqueeze(-2));
        },
        {uniform({5, 3})}));
    CHECK(check(
        [](const In& in) {
            const auto r = linalg::svd(in[0], true);
            const auto vh = r.Vh.narrow(-2, 0, 2);
            return Tensor<double>(vh * vh);
        },
        {uniform({2, 4})}));
}

TEST_CASE("linalg gradcheck: cholesky lower and upper") {
    manual_seed(18);
    auto spd = [](const Tensor<double>& x) {
        return Tensor<double>(matmul(x, x.transpose(-2, -1)) + eye<double>(x.sizes()[x.dim() - 1]));
    };
    CHECK(check([&](const In& in) { return linalg::cholesky(spd(in[0])); }, {uniform({3, 3})}));
    CHECK(check([&](const In& in) { return linalg::cholesky(spd(in[0]), true); }, {uniform({2, 3, 3})}));
}

TEST_CASE("linalg gradcheck: tril and triu") {
    manual_seed(25);
    CHECK(check([](const In& in) { return tril(in[0]); }, {uniform({3, 4})}));
    CHECK(check([](const In& in) { return triu(in[0], -1); }, {uniform({2, 3, 3})}));
    CHECK(check([](const In& in) { return tril(in[0] * 2.0, 1); }, {uniform({4, 3})}));
}

TEST_CASE("linalg gradcheck: a chain of decompositions and products") {
    manual_seed(19);
    CHECK(check(
        [](const In& in) {
            const auto x = linalg::solve(in[0], matmul(in[1], in[1].t()));
            return Tensor<double>(linalg::inv(x + eye<double>(3) * 4.0).sum() + linalg::det(in[0]));
        },
        {well_conditioned({3, 3}), uniform({3, 2})}));
}

// ---- What is recorded -------------------------------------------------------------------------

TEST_CASE("linalg grad: grad_fn names of the decompositions") {
    manual_seed(20);
    auto a = well_conditioned({3, 3}).requires_grad_();
    CHECK(linalg::inv(a).grad_fn()->name() == "LinalgInvExBackward0");
    CHECK(linalg::det(a).grad_fn()->name() == "LinalgDetBackward0");
    const auto s = linalg::slogdet(a);
    CHECK(s.logabsdet.grad_fn()->name() == "LinalgSlogdetBackward0");
    CHECK_FALSE(s.sign.requires_grad());  // no gradient flows through the sign
    CHECK(linalg::solve(a, uniform({3})).grad_fn()->name() == "LinalgSolveExBackward0");
    const auto e = linalg::eigh(a);
    CHECK(e.eigenvalues.grad_fn()->name() == "LinalgEighBackward0");
    CHECK(e.eigenvectors.grad_fn()->name() == "LinalgEighBackward0");
    CHECK(linalg::svdvals(a).grad_fn()->name() == "LinalgSvdBackward0");
    const auto sv = linalg::svd(a);
    CHECK(sv.U.grad_fn()->name() == "LinalgSvdBackward0");
    CHECK(sv.S.grad_fn()->name() == "LinalgSvdBackward0");
    CHECK(sv.Vh.grad_fn()->name() == "LinalgSvdBackward0");
    auto p = Tensor<double>(matmul(a, a.t()));
    CHECK(linalg::cholesky(p).grad_fn()->name() == "LinalgCholeskyExBackward0");
    CHECK(vdot(a[0], a[1]).grad_fn()->name() == "VdotBackward0");
}

TEST_CASE("linalg grad: nothing is recorded without grad or under NoGradGuard") {
    manual_seed(21);
    auto a = uniform({2, 3}), b = uniform({3, 2});
    CHECK_FALSE(matmul(a, b).requires_grad());
    CHECK_FALSE(linalg::inv(well_conditioned({3, 3})).requires_grad());
    a.requires_grad_();
    {
        NoGradGuard no_grad;
        CHECK_FALSE(matmul(a, b).requires_grad());
        CHECK_FALSE(addmm(uniform({2, 2}), a, b).requires_grad());
        CHECK_FALSE(einsum("ij,jk->ik", {a, b}).requires_grad());
    }
    // Only the operand that requires grad gets a gradient.
    auto y = matmul(a, b);
    Tensor<double>(y.sum()).backward();
    CHECK(a.grad().defined());
    CHECK_FALSE(b.grad().defined());
    // Integer products have no gradients and record nothing.
    auto i = arange(6).view({2, 3});
    CHECK_FALSE(matmul(i, i.t()).requires_grad());
}

TEST_CASE("linalg grad: an in-place write to a saved tensor is refused on backward") {
    manual_seed(22);
    auto a = well_conditioned({3, 3}).requires_grad_();
    auto x = linalg::inv(a);  // saves its own result
    {
        NoGradGuard no_grad;
        x.fill_(1.0);
    }
    CHECK_THROWS_WITH(Tensor<double>(x.sum()).backward(),
                      Catch::Contains("modified by an inplace operation") && Catch::Contains("LinalgInvExBackward0"));
}

TEST_CASE("linalg grad: a second backward through freed saved tensors is refused") {
    manual_seed(23);
    auto a = uniform({2, 3}).requires_grad_();
    auto b = uniform({3, 2}).requires_grad_();
    auto loss = Tensor<double>(matmul(a, b).sum());
    loss.backward();
    CHECK_THROWS_WITH(loss.backward(), Catch::Contains("backward through the graph a second time"));
    // retain_graph keeps them: the gradients accumulate.
    auto loss2 = Tensor<double>(mm(a, b).sum());
    a.reset_grad();
    loss2.backward(Tensor<double>(), true);
    loss2.backward();
    const auto g = a.grad().contiguous().to_vector();
    const auto bs = Tensor<double>(b.detach().sum(1)).to_vector();
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t k = 0; k < 3; ++k) CHECK(g[static_cast<size_t>(i * 3 + k)] == Approx(2 * bs[static_cast<size_t>(k)]));
}

TEST_CASE("linalg grad: float32 products and decompositions record too") {
    manual_seed(24);
    auto a = rand({3, 3}).requires_grad_();
    auto y = linalg::det(Tensor<float>(a + eye<float>(3) * 3.0f));
    CHECK(y.grad_fn()->name() == "LinalgDetBackward0");
    y.backward();
    REQUIRE(a.grad().defined());
    CHECK(a.grad().dtype() == kFloat32);
    auto b = rand({3, 2}).requires_grad_();
    Tensor<float>(matmul(a, b).sum()).backward();
    CHECK(b.grad().defined());
}

// ---- PyTorch-golden gradients -----------------------------------------------------------------

#include "linalg_grad_cases.inc"

}}  // namespace TENET_TEST_FILE
