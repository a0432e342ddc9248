// Sparse COO tensors against PyTorch 1.13 (tests/golden/gen_sparse.py writes the cases).
#include <tenet/autograd/gradcheck.hpp>
#include <tenet/sparse.hpp>

#include "../golden_data.hpp"
#include "../require_throws.hpp"

using namespace tenet;
using golden::Case;
using golden::GoldenFile;

namespace {

const GoldenFile& cases() {
    static const GoldenFile f = golden::read_golden(golden::golden_path(__FILE__, "sparse_cases.txt"));
    return f;
}

template <class T>
Tensor<T> in(const Case& c, const std::string& key) {
    return golden::make<T>(cases().inputs.at(c.arg(key))).cpu();
}

IntArray list(const std::string& text) {
    IntArray d;
    std::istringstream s(text);
    for (std::string w; std::getline(s, w, ',');) d.push_back(std::stoll(w));
    return d;
}

SparseTensor<float> operand(const Case& c, const std::string& suffix = "") {
    auto s = sparse_coo_tensor(in<int64_t>(c, "ind" + suffix), in<float>(c, "val" + suffix), list(c.arg("size" + suffix)));
    return c.flag("co" + suffix) ? s.coalesce() : s;
}

void check_sparse(const Case& c, const SparseTensor<float>& s) {
    golden::compare(golden::parse_part(c.parts.at(0)), s._indices(), 0.0);
    golden::compare(golden::parse_part(c.parts.at(1)), s._values(), 0.0);
    CHECK(static_cast<double>(s.is_coalesced()) == golden::parse_part(c.parts.at(2)).values.at(0));
}

}  // namespace

TEST_CASE("sparse: coalesce, to_dense, to_sparse, add, mul, sum, mm and addmm as PyTorch", "[sparse]") {
    std::map<std::string, int> seen;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || c.op.rfind("grad_", 0) == 0 || c.op.rfind("sum_", 0) == 0) continue;
        INFO(c.line.substr(0, 200));
        ++seen[c.op];
        if (c.op == "to_sparse") {
            check_sparse(c, to_sparse(in<float>(c, "x"), c.integer("sd", 0)));
            continue;
        }
        const SparseTensor<float> s = operand(c);
        CHECK(s.layout() == kSparseCOO);
        CHECK(s.is_sparse());
        if (c.op == "coalesce") {
            check_sparse(c, s.coalesce());
            CHECK(s.coalesce().indices().sizes() == s.coalesce()._indices().sizes());
        } else if (c.op == "mul") {
            check_sparse(c, s * c.number("s", 0));
        } else if (c.op == "add") {
            check_sparse(c, s + operand(c, "2"));
        } else if (c.op == "to_dense") {
            golden::compare(golden::parse_part(c.parts.at(0)), s.to_dense(), 0.0);
        } else if (c.op == "sum") {
            golden::compare(golden::parse_part(c.parts.at(0)), sparse::sum(s), 1e-6);
        } else if (c.op == "mm") {
            golden::compare(golden::parse_part(c.parts.at(0)), mm(s, in<float>(c, "d")), 1e-6);
            golden::compare(golden::parse_part(c.parts.at(0)), sparse::mm(s, in<float>(c, "d")), 1e-6);
        } else {
            REQUIRE(c.op == "addmm");
            golden::compare(golden::parse_part(c.parts.at(0)),
                            addmm(in<float>(c, "inp"), s, in<float>(c, "d"), c.number("beta", 1), c.number("alpha", 1)),
                            1e-6);
        }
    }
    CHECK(seen["add"] == 20);
    CHECK(seen["addmm"] == 18);
    CHECK(seen["to_sparse"] == 5);
}

TEST_CASE("sparse: sum over dims as torch.sparse.sum", "[sparse]") {
    std::map<std::string, int> seen;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || c.op.rfind("sum_", 0) != 0) continue;
        INFO(c.line.substr(0, 200));
        ++seen[c.op];
        const auto r = sparse::sum(operand(c), list(c.arg("dims")));
        if (c.op == "sum_sparse") {
            REQUIRE(std::holds_alternative<SparseTensor<float>>(r));
            const auto& s = std::get<SparseTensor<float>>(r);
            golden::compare(golden::parse_part(c.parts.at(0)), s._indices(), 0.0);
            golden::compare(golden::parse_part(c.parts.at(1)), s._values(), 1e-6);
            CHECK(s.is_coalesced());
        } else {
            REQUIRE(std::holds_alternative<Tensor<float>>(r));
            golden::compare(golden::parse_part(c.parts.at(0)), std::get<Tensor<float>>(r), 1e-6);
        }
    }
    CHECK(seen["sum_sparse"] == 22);
    CHECK(seen["sum_dense"] == 10);
    // Mathematics: summing no dim gives the coalesced operand, one dim the overload of a list.
    const auto s = sparse_coo_tensor(tensor<int64_t>({{1, 0, 1}, {2, 0, 2}}), tensor<float>({1.0f, 2.0f, 4.0f}), {2, 3});
    const auto none = std::get<SparseTensor<float>>(sparse::sum(s, IntArray{}));
    CHECK(none.is_coalesced());
    CHECK(equal(none.to_dense(), s.to_dense()));
    CHECK(equal(std::get<SparseTensor<float>>(sparse::sum(s, -1)).to_dense(), s.to_dense().sum(IntArray{1})));
    TENET_REQUIRE_THROWS(sparse::sum(s, 2), index_error,
                         "sparse.sum: dimension out of range (expected to be in range of [-2, 1], but got 2)");
    TENET_REQUIRE_THROWS(sparse::sum(s, {1, -1}), value_error,
                         "sparse.sum: dim 1 appears multiple times in the list of dims");
}

TEST_CASE("sparse: gradients of mm, addmm, sparse::mm and to_dense as PyTorch", "[sparse][autograd]") {
    std::map<std::string, int> seen;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || c.op.rfind("grad_", 0) != 0) continue;
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

TEST_CASE("sparse: printing as PyTorch's repr", "[sparse]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "print") continue;
        INFO(c.line.substr(0, 200));
        std::string expected = c.parts.at(0).substr(1);
        for (size_t p; (p = expected.find("\\n")) != std::string::npos;) expected.replace(p, 2, "\n");
        CHECK(to_string(operand(c)) == expected);
        ++n;
    }
    CHECK(n == 10);
}

TEST_CASE("sparse: the refusals PyTorch makes, and tenet's messages", "[sparse]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "throws") continue;
        INFO(c.line);
        if (c.parts.at(0).find("index") != std::string::npos) CHECK_THROWS_AS(operand(c), index_error);
        else CHECK_THROWS_AS(operand(c), shape_error);
        ++n;
    }
    CHECK(n == 4);
    const auto i = tensor<int64_t>({{0, 3}, {1, 2}});
    const auto v = tensor<float>({1.0f, 2.0f});
    TENET_REQUIRE_THROWS(sparse_coo_tensor(i, v, {3, 3}), index_error,
                         "sparse_coo_tensor: index 3 (entry 1) is out of range for dim 0 of size 3");
    TENET_REQUIRE_THROWS(sparse_coo_tensor(i, tensor<float>({1.0f}), {4, 4}), shape_error,
                         "sparse_coo_tensor: indices and values must have the same nnz, but got nnz 2 from indices "
                         "(shape [2, 2]) and 1 from values (shape [1])");
    const auto s = sparse_coo_tensor(tensor<int64_t>({{0, 0}, {1, 1}}), v, {4, 4});
    CHECK(!s.is_coalesced());
    CHECK_THROWS_AS(s.indices(), error);
    CHECK_THROWS_AS(s.values(), error);
    CHECK_THROWS_AS(s + sparse_coo_tensor(i, v, {4, 5}), shape_error);
    TENET_REQUIRE_THROWS(mm(s, ones<float>({3, 2})), shape_error,
                         "mm: mat1 and mat2 shapes cannot be multiplied (4x4 and 3x2)");
    CHECK_THROWS_AS(to_sparse(ones<float>({2, 2}), 3), index_error);
}

TEST_CASE("sparse: mm of a large random matrix equals the dense product", "[sparse]") {
    // Mathematics, not PyTorch: S @ D == to_dense(S) @ D, on enough rows to use every thread.
    manual_seed(5);
    const int64_t n = 512, nnz = 4096;
    const Tensor<int64_t> idx = randint(0, n, {2, nnz});
    const SparseTensor<double> s = sparse_coo_tensor(idx, randn<double>({nnz}), {n, n});
    const Tensor<double> d = randn<double>({n, 64});
    CHECK(allclose(mm(s, d), matmul(s.to_dense(), d), 1e-10, 1e-10));
    CHECK(allclose(addmm(d.narrow(0, 0, 1), s, d, 0.5, 2.0), d.narrow(0, 0, 1) * 0.5 + matmul(s.to_dense(), d) * 2.0,
                   1e-10, 1e-10));
}
