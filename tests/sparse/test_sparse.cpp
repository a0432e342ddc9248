// Sparse COO tensors against PyTorch 1.13 (tests/golden/gen_sparse.py writes the cases); the
// gradients are in test_sparse_grad.cpp (skipped in builds without autograd).
#include <tenet/sparse.hpp>

#include "../require_throws.hpp"
#include "sparse_cases.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace sparse_cases;

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

}}  // namespace TENET_TEST_FILE
