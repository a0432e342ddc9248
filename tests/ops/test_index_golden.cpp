// PyTorch's index_select, gather, take_along_dim, take, scatter, scatter_add, scatter_reduce,
// index_add, index_copy, index_fill, index_reduce and put_, read as data at run time from
// index_cases.txt (tests/golden/gen_index.py writes it; the format is described there), compared
// as tests/golden_data.hpp compares. A placed file (tests/CMakeLists.txt): the cases run on the
// host and on the emulated device.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <optional>
#include <set>
#include <string>

#include "../golden_data.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {

const golden::GoldenFile& cases() { return golden::cached(__FILE__, "index_cases.txt"); }

using golden::Case;

template <class T>
Tensor<T> input(const Case& c, const std::string& key) {
    return golden::input<T>(cases(), c, key);
}

Tensor<int64_t> index_of(const Case& c) {
    return input<int64_t>(c, "index");
}

/// The tensor written into and the one written from: a case that names `self` differentiates
/// with respect to its src (named x), the others with respect to self (x).
template <class T>
std::pair<Tensor<T>, Tensor<T>> self_and(const Case& c, const Tensor<T>& x, const char* key) {
    if (c.has("self"))
        return {input<T>(c, "self"), x};
    return {x, input<T>(c, key)};
}

/// Runs the case's op on x and hands its result to k.
template <class T, class K>
void call_op(const Case& c, const Tensor<T>& x, K&& k) {
    const std::string& op = c.op;
    const bool in_place = op.back() == '_';
    const std::string name = in_place ? op.substr(0, op.size() - 1) : op;
    const Tensor<int64_t> index = index_of(c);
    if (op == "index_select")
        return k(c.dim() == 0 ? index_select(x, 0, index) : x.index_select(c.dim(), index));
    if (op == "gather")
        return k(c.dim() == 1 ? gather(x, 1, index) : x.gather(c.dim(), index));
    if (op == "take_along_dim") {
        if (c.has("dim"))
            return k(x.take_along_dim(index, c.dim()));
        return k(take_along_dim(x, index));
    }
    if (op == "take")
        return k(x.take(index));
    if (op == "index_fill" && (c.has("value_t") || c.has("self"))) {
        auto [self, value] = self_and(c, x, "value_t");
        return k(self.index_fill(c.dim(), index, value));
    }
    if (op == "index_fill" || op == "index_fill_") {
        if (!in_place)
            return k(x.index_fill(c.dim(), index, c.number("value", 0)));
        Tensor<T> y = x.clone();
        index_fill_(y, c.dim(), index, c.number("value", 0));
        return k(y);
    }
    if (name == "scatter" && c.has("value")) {
        const double value = c.number("value", 0);
        if (c.has("reduce"))
            return k(scatter(x, c.dim(), index, value, c.arg("reduce")));
        return k(x.scatter(c.dim(), index, value));
    }
    const char* key = (name == "scatter" || name == "scatter_add" || name == "scatter_reduce") ? "src" : "source";
    auto [self, src] = self_and(c, x, key);
    // The in-place forms write into a copy of self (a copy that records its history).
    Tensor<T> y = in_place ? self.clone() : Tensor<T>();
    if (name == "scatter") {
        if (c.has("reduce"))
            return k(scatter(self, c.dim(), index, src, c.arg("reduce")));
        if (!in_place)
            return k(self.scatter(c.dim(), index, src));
        return k(scatter_(y, c.dim(), index, src));
    }
    if (name == "scatter_add") {
        if (!in_place)
            return k(c.dim() == 0 ? scatter_add(self, 0, index, src) : self.scatter_add(c.dim(), index, src));
        return k(scatter_add_(y, c.dim(), index, src));
    }
    if (name == "scatter_reduce") {
        const bool include_self = c.flag("include_self");
        if (!in_place)
            return k(self.scatter_reduce(c.dim(), index, src, c.arg("reduce"), include_self));
        return k(scatter_reduce_(y, c.dim(), index, src, c.arg("reduce"), include_self));
    }
    if (name == "index_add") {
        const double alpha = c.number("alpha", 1);
        if (!in_place)
            return k(alpha == 1 ? self.index_add(c.dim(), index, src) : index_add(self, c.dim(), index, src, alpha));
        return k(index_add_(y, c.dim(), index, src, alpha));
    }
    if (name == "index_copy") {
        if (!in_place)
            return k(self.index_copy(c.dim(), index, src));
        return k(index_copy_(y, c.dim(), index, src));
    }
    if (name == "index_reduce") {
        const bool include_self = c.flag("include_self");
        if (!in_place)
            return k(self.index_reduce(c.dim(), index, src, c.arg("reduce"), include_self));
        return k(index_reduce_(y, c.dim(), index, src, c.arg("reduce"), include_self));
    }
    if (op == "put_")
        return k(put_(y, index, src, c.flag("accumulate")));
    FAIL("no tenet call for " << c.line);
}

// The out-of-place ops' grad_fn names are PyTorch's; the in-place forms' results are copy_'s.
const std::set<std::string> kNamedNodes = {"index_select", "gather",      "take_along_dim", "take",
                                           "scatter",      "scatter_add", "scatter_reduce", "index_add",
                                           "index_copy",   "index_fill",  "index_reduce"};

void run_ops(const std::set<std::string>& ops) {
    golden::run_ops(cases(), ops, kNamedNodes, {},
                    [](const Case& c, const auto& x, auto&& k) { call_op(c, x, k); });
}

Tensor<int64_t> longs(std::initializer_list<int64_t> v) {
    return tensor(std::vector<int64_t>(v));
}

} // namespace

TEST_CASE("golden index_select, gather, take_along_dim, take", "[index][golden]") {
    run_ops({"index_select", "gather", "take_along_dim", "take"});
}

TEST_CASE("golden scatter, scatter_add", "[index][golden]") {
    run_ops({"scatter", "scatter_", "scatter_add", "scatter_add_"});
}

TEST_CASE("golden scatter_reduce", "[index][golden]") {
    run_ops({"scatter_reduce", "scatter_reduce_"});
}

TEST_CASE("golden index_add, index_copy, index_fill, index_reduce", "[index][golden]") {
    run_ops({"index_add", "index_add_", "index_copy", "index_copy_", "index_fill", "index_fill_", "index_reduce",
             "index_reduce_"});
}

TEST_CASE("golden put_", "[index][golden]") {
    run_ops({"put_"});
}

TEST_CASE("index ops name the op, the index and the dim in their errors", "[index][errors]") {
    const auto x = arange(12, kFloat64).reshape({3, 4});
    CHECK_THROWS_WITH(gather(x, 0, longs({0, 3}).reshape({1, 2})),
                      Catch::Contains("gather") && Catch::Contains("index 3") && Catch::Contains("dimension 0") &&
                          Catch::Contains("size 3"));
    CHECK_THROWS_WITH(index_select(x, 1, longs({-1})), Catch::Contains("index_select") && Catch::Contains("index -1"));
    CHECK_THROWS_WITH(take(x, longs({12})), Catch::Contains("take") && Catch::Contains("12 elements"));
    // src of a lower rank than self: a shape error (PyTorch 1.13 reports it as a dim out of range)
    CHECK_THROWS_AS(scatter(x, 0, longs({0, 1}).reshape({1, 2}), arange(4, kFloat64)), value_error);
    CHECK_THROWS_WITH(scatter_reduce(x, 0, longs({0}).reshape({1, 1}), x, "max"), Catch::Contains("amax"));
    CHECK_THROWS_AS(index_reduce(x, 0, longs({0}), x.narrow(0, 0, 1), "sum"), value_error);
}

TEST_CASE("index ops: methods, in-place forms and autograd's refusals", "[index]") {
    auto x = arange(6, kFloat64).reshape({2, 3});
    // 0-d x, empty index: the index's shape (PyTorch 1.13 returns uninitialised 0-d memory)
    CHECK(index_select(tensor(2.0), 0, longs({})).sizes() == IntArray{0});
    Tensor<double> y = x.clone();
    scatter_(y, 1, longs({2, 0}).reshape({1, 2}), 9.0);
    CHECK(y.to_vector() == std::vector<double>{9, 1, 9, 3, 4, 5});
    index_fill_(y, 0, longs({-1}), -1.0);
    CHECK(y.to_vector() == std::vector<double>{9, 1, 9, -1, -1, -1});
    put_(y, longs({0, 0}), tensor<double>({1.0, 2.0}), true);
    CHECK(y.to_vector()[0] == 12.0);
    // the in-place forms are methods too (TENET_FORWARDED_INPLACE_METHODS), as k-means writes
    // c.scatter_add_(0, cl[:, None].repeat(1, D), x): values from the sums by hand
    Tensor<double> c = zeros<double>({2, 3});
    Tensor<int64_t> cl = longs({1, 1});
    c.scatter_add_(0, cl.index({indexing::Slice(), indexing::None}).repeat({1, 3}), x);
    CHECK(c.to_vector() == std::vector<double>{0, 0, 0, 3, 5, 7});
    c.index_fill_(1, longs({0}), 2.0).masked_fill_(c > 6.0, -1.0);
    CHECK(c.to_vector() == std::vector<double>{2, 0, 0, 2, 5, -1});
    // a braced list of sizes or dims as the first arguments of a method
    CHECK(x.roll({1, 1}, {0, 1}).to_vector() == std::vector<double>{5, 3, 4, 2, 0, 1});
    CHECK(x.tile({2}).sizes() == IntArray{2, 6});
    // methods of an expression evaluate it first
    CHECK((x + 1).gather(1, longs({2, 0}).reshape({2, 1}).expand({2, 1})).to_vector() == std::vector<double>{3, 4});
    if constexpr (TENET_AUTOGRAD) {
        auto leaf = x.clone().requires_grad_();
        CHECK_THROWS(index_add_(leaf, 0, longs({0}), tensor<double>({1.0, 1.0, 1.0}).reshape({1, 3})));
        // scatter with reduce: no derivative, as in PyTorch 1.13 (backward raises)
        auto r = scatter(leaf, 0, longs({1}).reshape({1, 1}), 2.0, "multiply");
        CHECK_THROWS_WITH(r.sum().backward(), Catch::Contains("not implemented"));
        // the gradient of src larger than its index: zero outside it (PyTorch 1.13's backward fails there)
        auto src = full<double>({2, 3}, 1.0).requires_grad_();
        scatter(x, 0, longs({1, 0}).reshape({1, 2}), src).sum().backward();
        CHECK(src.grad().to_vector() == std::vector<double>{1, 1, 0, 0, 0, 0});
        // amax's gradient reads its result: written to in place after, backward refuses
        auto r2 = scatter_reduce(x, 0, longs({1, 0}).reshape({1, 2}), src, "amax");
        r2.detach().fill_(0.0);
        CHECK_THROWS(r2.sum().backward());
    }
}

TEST_CASE("index ops read strided inputs in their logical order and write through views", "[index]") {
    const auto base = arange(12, kFloat64).reshape({4, 3});
    const auto xt = base.t(); // (3, 4), not contiguous
    const auto xc = xt.contiguous();
    const auto idx = longs({2, 0, 1, 2, 0, 0, 2, 1}).reshape({2, 4});
    CHECK(gather(xt, 0, idx).to_vector() == gather(xc, 0, idx).to_vector());
    CHECK(index_select(xt, 1, longs({3, 1})).to_vector() == index_select(xc, 1, longs({3, 1})).to_vector());
    CHECK(take(xt, longs({1, 5, -1})).to_vector() == take(xc, longs({1, 5, -1})).to_vector());
    const auto src = arange(8, kFloat64).reshape({2, 4});
    CHECK(scatter_add(xt, 0, idx, src).to_vector() == scatter_add(xc, 0, idx, src).to_vector());
    CHECK(scatter_add(xc, 0, idx.t().contiguous().t(), src).to_vector() == scatter_add(xc, 0, idx, src).to_vector());
    // in place into a transposed view: the base sees it
    Tensor<double> b = base.clone();
    Tensor<double> v = b.t();
    index_fill_(v, 0, longs({0}), -1.0); // v's row 0 is b's column 0
    const auto got = b.to_vector();
    for (size_t i = 0; i < got.size(); ++i)
        CHECK(got[i] == (i % 3 == 0 ? -1.0 : static_cast<double>(i)));
}

}}  // namespace TENET_TEST_FILE
