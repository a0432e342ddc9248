// Gradients through sparse tensors against PyTorch 1.13 (tests/golden/gen_sparse.py), and
// gradcheck through the values and the dense operands.
#include <tenet/autograd/gradcheck.hpp>
#include <tenet/sparse.hpp>

#include "../require_throws.hpp"
#include "sparse_cases.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace sparse_cases;

TEST_CASE("sparse: gradients of mm, addmm, sparse::mm and to_dense as PyTorch", "[sparse][autograd]") {
    std::map<std::string, int> seen;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || c.op.rfind("grad_", 0) != 0 || c.op == "grad_leaf") continue;
        INFO(c.line.substr(0, 200));
        ++seen[c.op];
        const Tensor<float> vals = in<float>(c, "val").requires_grad_();
        const bool values_grad = c.op == "grad_smm" || c.op == "grad_to_dense";
        auto s = sparse_coo_tensor(in<int64_t>(c, "ind"), values_grad ? vals : vals.detach(), list(c.arg("size")));
        if (c.flag("co")) s = s.coalesce();
        if (c.op == "grad_to_dense") {
            const Tensor<float> r = s.to_dense();
            CHECK(r.grad_fn()->name() == c.arg("fn"));
            r.backward(in<float>(c, "g"));
            golden::compare(golden::parse_part(c.parts.at(0)), vals.grad(), 0.0);
            continue;
        }
        const Tensor<float> d = in<float>(c, "d").requires_grad_();
        Tensor<float> r, bias;
        if (c.op == "grad_mm") {
            r = mm(s, d);
        } else if (c.op == "grad_smm") {
            r = sparse::mm(s, d);
        } else {
            REQUIRE(c.op == "grad_addmm");
            bias = in<float>(c, "inp").requires_grad_();
            r = addmm(bias, s, d, c.number("beta", 1), c.number("alpha", 1));
        }
        CHECK(r.grad_fn()->name() == c.arg("fn"));
        r.backward(in<float>(c, "g"));
        golden::compare(golden::parse_part(c.parts.at(0)), r.detach(), 1e-6);
        golden::compare(golden::parse_part(c.parts.at(1)), d.grad(), 1e-6);
        if (c.op == "grad_smm") golden::compare(golden::parse_part(c.parts.at(2)), vals.grad(), 1e-6);
        if (c.op == "grad_addmm") golden::compare(golden::parse_part(c.parts.at(2)), bias.grad(), 1e-6);
    }
    CHECK(seen["grad_mm"] == 6);
    CHECK(seen["grad_smm"] == 6);
    CHECK(seen["grad_addmm"] == 18);
    CHECK(seen["grad_to_dense"] == 8);
}

TEST_CASE("sparse: a sparse leaf's grad is sparse, as PyTorch's", "[sparse][autograd]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || c.op != "grad_leaf") continue;
        INFO(c.line.substr(0, 200));
        SparseTensor<float> s = operand(c);
        CHECK(s.is_leaf());
        s.requires_grad_();
        CHECK(s.requires_grad());
        CHECK(s.is_leaf());
        CHECK(!s.grad().defined());
        Tensor<float> r;
        if (c.arg("via") == "to_dense") r = s.to_dense();
        else if (c.arg("via") == "scale_add") r = (s * 1.5f + s).to_dense();
        else r = sparse::mm(s, in<float>(c, "d"));
        r.backward(in<float>(c, "g"));
        const SparseTensor<float> g = s.grad();
        REQUIRE(g.defined());
        // PyTorch's grad is sorted and unique but not always flagged coalesced; tenet's is.
        CHECK(g.is_coalesced());
        golden::compare(golden::parse_part(c.parts.at(0)), g._indices(), 0.0);
        golden::compare(golden::parse_part(c.parts.at(1)), g._values(), 1e-6);
        CHECK(g.sizes() == s.sizes());
        CHECK(!g.requires_grad());
        s.reset_grad();
        CHECK(!s.grad().defined());
        ++n;
    }
    CHECK(n == 22);
    // The leaf does not make the tensor its values came from require grad.
    const auto v = tensor<float>({1.0f, 2.0f});
    auto s = sparse_coo_tensor(tensor<int64_t>({{0, 1}}), v, {3}).requires_grad_();
    CHECK(!v.requires_grad());
    // Accumulates over passes, as a dense leaf.
    s.to_dense().sum().backward();
    s.to_dense().sum().backward();
    golden::compare(golden::parse_part("float32 1 2 2 2 2"), s.grad()._values(), 0.0);
    // Only a leaf can stop requiring grad.
    auto t = s * 2.0f;
    CHECK(!t.is_leaf());
    TENET_REQUIRE_THROWS(t.requires_grad_(false), error,
                         Catch::Contains("you can only change requires_grad flags of leaf variables"));
    TENET_REQUIRE_THROWS(sparse_coo_tensor(tensor<int64_t>({{0}}), tensor<int64_t>({1}), {2}).requires_grad_(), dtype_error,
                         Catch::Contains("requires_grad_: only Tensors of floating point dtype can require gradients"));
}

TEST_CASE("sparse: gradcheck through the values and the dense operands", "[sparse][autograd]") {
    // Mathematics: finite differences, on an uncoalesced hybrid-free operand with a duplicate.
    const auto ix = tensor<int64_t>({{0, 2, 0, 1, 2}, {1, 0, 1, 3, 2}});
    auto sp = [&](const Tensor<double>& v) { return sparse_coo_tensor(ix, v, {3, 4}); };
    const std::vector<Tensor<double>> vd{tensor<double>({0.5, -1.0, 2.0, 1.5, -0.25}),
                                         tensor<double>({{1.0, 2.0}, {-1.0, 0.5}, {0.25, 3.0}, {2.0, -2.0}})};
    CHECK(autograd::gradcheck([&](const std::vector<Tensor<double>>& x) { return sparse::mm(sp(x[0]), x[1]); }, vd));
    CHECK(autograd::gradcheck([&](const std::vector<Tensor<double>>& x) { return sp(x[0]).to_dense(); }, {vd[0]}));
    CHECK(autograd::gradcheck([&](const std::vector<Tensor<double>>& x) { return sp(x[0]).coalesce().to_dense(); }, {vd[0]}));
    CHECK(autograd::gradcheck([&](const std::vector<Tensor<double>>& x) { return (sp(x[0]) * 2.5 + sp(x[1].narrow(0, 0, 5).flatten())).to_dense(); },
                    {vd[0], tensor<double>({1.0, 2.0, 3.0, 4.0, 5.0, 6.0})}));
    CHECK(autograd::gradcheck([&](const std::vector<Tensor<double>>& x) { return sparse::sum(sp(x[0])); }, {vd[0]}));
    CHECK(autograd::gradcheck(
        [&](const std::vector<Tensor<double>>& x) { return std::get<SparseTensor<double>>(sparse::sum(sp(x[0]), 0)).to_dense(); },
        {vd[0]}));
    CHECK(autograd::gradcheck([&](const std::vector<Tensor<double>>& x) { return addmm(x[0], sp(vd[0]), x[1], 0.5, -2.0); },
                    {tensor<double>({{1.0, -1.0}}), vd[1]}));
    // PyTorch's refusals: mm and addmm have no gradient for a sparse operand (sparse::mm has).
    const Tensor<double> v = vd[0].detach().requires_grad_();
    TENET_REQUIRE_THROWS(mm(sp(v), vd[1]), error,
                         "mm: the backward pass for this operation requires the 'self' tensor to be strided, but a "
                         "sparse tensor of size [3, 4] whose values require grad was given; use sparse::mm, or detach "
                         "the values");
    CHECK_THROWS_AS(addmm(vd[1].narrow(0, 0, 3), sp(v), vd[1]), error);
    {
        NoGradGuard no_grad;
        CHECK(mm(sp(v), vd[1]).sizes() == IntArray{3, 2});
    }
    // Nothing requires grad: nothing recorded.
    CHECK(!sparse::mm(sp(vd[0]), vd[1]).requires_grad());
    CHECK(!sp(vd[0]).to_dense().requires_grad());
}

}}  // namespace TENET_TEST_FILE
