// PyTorch's advanced indexing (index tensors and masks among slices, None, Ellipsis and integers),
// read as data at run time from advanced_index_cases.txt (tests/golden/gen_advanced_index.py
// writes it and describes the `spec` of an index list). A placed file (tests/CMakeLists.txt): the
// cases run on the host and on the emulated device.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../golden_data.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace tenet::indexing;

namespace {

const golden::GoldenFile& cases() { return golden::cached(__FILE__, "advanced_index_cases.txt"); }

using golden::Case;

/// The index list a case's `spec` describes.
std::vector<TensorIndex> parse_spec(const std::string& spec) {
    std::vector<TensorIndex> out;
    std::istringstream in(spec);
    for (std::string e; std::getline(in, e, ';');) {
        if (e == "n")
            out.emplace_back(None);
        else if (e == "e")
            out.emplace_back(Ellipsis);
        else if (e[0] == 'i')
            out.emplace_back(std::stoll(e.substr(1)));
        else if (e[0] == 's') {
            std::vector<std::optional<int64_t>> parts;
            std::istringstream ps(e.substr(1));
            for (std::string p; std::getline(ps, p, ':');)
                parts.push_back(p.empty() ? std::nullopt : std::optional(std::stoll(p)));
            parts.resize(3);
            out.emplace_back(Slice(parts[0], parts[1], parts[2]));
        } else {
            const golden::Golden& g = cases().inputs.at(e.substr(1));
            if (g.dtype == "bool")
                out.emplace_back(golden::make<bool>(g));
            else if (g.dtype == "int32")
                out.emplace_back(golden::make<int32_t>(g));
            else
                out.emplace_back(golden::make<int64_t>(g));
        }
    }
    return out;
}

/// x.index({...}) with the list's entries (index takes a braced list).
template <class T>
Tensor<T> index_with(const Tensor<T>& x, const std::vector<TensorIndex>& v) {
    switch (v.size()) {
    case 1:
        return x.index({v[0]});
    case 2:
        return x.index({v[0], v[1]});
    case 3:
        return x.index({v[0], v[1], v[2]});
    case 4:
        return x.index({v[0], v[1], v[2], v[3]});
    default:
        FAIL("an index list of " << v.size() << " entries");
    }
    return {};
}
template <class T>
void put_with(Tensor<T>& x, const std::vector<TensorIndex>& v, const Tensor<T>& values, bool accumulate) {
    switch (v.size()) {
    case 1:
        x.index_put_({v[0]}, values, accumulate);
        break;
    case 2:
        x.index_put_({v[0], v[1]}, values, accumulate);
        break;
    case 3:
        x.index_put_({v[0], v[1], v[2]}, values, accumulate);
        break;
    default:
        FAIL("an index list of " << v.size() << " entries");
    }
}

template <class T, class K>
void call_op(const Case& c, const Tensor<T>& x, K&& k) {
    const std::vector<TensorIndex> spec = parse_spec(c.arg("spec"));
    if (c.op == "index")
        return k(index_with(x, spec));
    if (c.op == "put") {
        Tensor<T> out = x.clone();
        const Tensor<T> values = golden::make<double>(cases().inputs.at(c.arg("values"))).template to<T>();
        put_with(out, spec, values, c.flag("accumulate"));
        return k(out);
    }
    FAIL("no tenet call for " << c.line);
}

} // namespace

TEST_CASE("golden advanced indexing: index tensors and masks", "[index][golden]") {
    golden::run_ops(cases(), {"index", "put"}, {"index"}, {},
                    [](const Case& c, const auto& x, auto&& k) { call_op(c, x, k); });
}

TEST_CASE("an advanced index's result is a copy, and assigning to it writes into the tensor", "[index]") {
    Tensor<float> x = arange<float>(6).reshape({2, 3});
    Tensor<float> picked = x.index({x > 2.0f});
    picked.fill_(-1.0f); // a copy: x keeps its values
    CHECK(x.to_vector() == std::vector<float>{0, 1, 2, 3, 4, 5});
    x.index({x > 2.0f}) = 9.0f;
    CHECK(x.to_vector() == std::vector<float>{0, 1, 2, 9, 9, 9});
    x.index({Slice(), tensor({0L, 2L})}) = tensor({7.0f, 8.0f});
    CHECK(x.to_vector() == std::vector<float>{7, 1, 8, 7, 9, 8});
    x.index({tensor({1L})}) = x.index({tensor({0L})}) * 2; // an expression
    CHECK(x.to_vector() == std::vector<float>{7, 1, 8, 14, 2, 16});
    Tensor<float> named = x.index({tensor({0L})});
    named.index({Slice()}) = 0.0f; // a view of the copy: the copy changes, x does not
    CHECK(x.to_vector() == std::vector<float>{7, 1, 8, 14, 2, 16});
}

TEST_CASE("advanced indexing refuses bad index tensors by name", "[index][errors]") {
    Tensor<float> x = zeros<float>({2, 3});
    CHECK_THROWS_WITH(x.index({tensor({0L, 5L})}),
                      Catch::Contains("index 5 is out of bounds for dimension 0 with size 2"));
    CHECK_THROWS_AS(x.index({tensor({true, false, true})}), index_error);
    CHECK_THROWS_AS(x.index({tensor({0L}), tensor({0L}), tensor({0L})}), index_error);
#if TENET_AUTOGRAD
    Tensor<float> w = zeros<float>({3}).requires_grad_();
    CHECK_THROWS_WITH(w.index_put_({tensor({0L})}, 1.0f), Catch::Contains("not supported"));
#endif
}

}}  // namespace TENET_TEST_FILE
