// Sparse COO tensors against PyTorch 1.13 (tests/golden/gen_sparse.py writes the cases).
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
        if (c.kind != "case") continue;
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
