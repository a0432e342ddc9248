// PyTorch's masked_fill, masked_select, masked_scatter, nonzero, argwhere, where(cond),
// count_nonzero and the shape operations of ops/reshape_ops.hpp, read as data at run time from
// masks_cases.txt (tests/golden/gen_masks.py writes it; the format is described there), compared
// as tests/golden_data.hpp compares. A view's strides and storage offset are compared too.
// A placed file (tests/CMakeLists.txt): the cases run on the host and on the emulated device.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../golden_data.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {

const golden::GoldenFile& cases() { return golden::cached(__FILE__, "masks_cases.txt"); }

using golden::Case;

template <class T>
Tensor<T> input(const Case& c, const std::string& key) {
    return golden::input<T>(cases(), c, key);
}

/// A tensor of the input's shape only (the *_as ops read nothing else).
Tensor<float> shaped_like(const Case& c, const std::string& key) {
    return empty<float>(cases().inputs.at(c.arg(key)).sizes);
}

/// A comma list (`empty`: none).
IntArray ints(const std::string& text) {
    IntArray out;
    if (text == "empty")
        return out;
    std::istringstream in(text);
    for (std::string w; std::getline(in, w, ',');)
        out.push_back(std::stoll(w));
    return out;
}
IntArray ints(const Case& c, const std::string& key) {
    return ints(c.arg(key));
}

std::optional<int64_t> optional_dim(const Case& c) {
    if (!c.has("dim"))
        return std::nullopt;
    return c.dim();
}

/// A view's strides, then its storage offset (the generator's geometry tensor), where the
/// inputs were put.
template <class T>
Tensor<int64_t> geometry(const Tensor<T>& t) {
    std::vector<int64_t> g(t.strides().begin(), t.strides().end());
    g.push_back(t.storage_offset());
    return placement::place(tensor(g));
}

/// The generator's `pre`: a view of x taken first.
template <class T>
Tensor<T> pre(const Case& c, const Tensor<T>& x) {
    if (!c.has("pre"))
        return x;
    if (c.arg("pre") == "t")
        return x.transpose(0, -1);
    return x.narrow(0, 1, x.size(0) - 1);
}

/// The tensors x, y, z of a multi-tensor op.
template <class T>
std::vector<Tensor<T>> listed(const Case& c, const Tensor<T>& x) {
    std::vector<Tensor<T>> ts{x};
    for (const char* key : {"y", "z"})
        if (c.has(key))
            ts.push_back(input<T>(c, key));
    return ts;
}

/// Runs the case's op on x and hands its result(s) to k.
template <class T, class K>
void call_op(const Case& c, const Tensor<T>& x0, K&& k) {
    const std::string& op = c.op;
    const Tensor<T> x = pre(c, x0);
    auto view = [&](const Tensor<T>& r) { return k(r, geometry(r)); };
    // ---- masks
    if (op == "masked_fill") {
        if (c.has("vt"))
            return k(x.masked_fill(input<bool>(c, "mask"), input<float>(c, "vt")));
        return k(masked_fill(x, input<bool>(c, "mask"), c.number("value", 0)));
    }
    if (op == "masked_fill_") {
        Tensor<T> y = x.clone();
        masked_fill_(y, input<bool>(c, "mask"), c.number("value", 0));
        return k(y);
    }
    if (op == "masked_fill_value_grad") {
        if constexpr (FloatingElement<T> && TENET_AUTOGRAD) {
            Tensor<float> v = input<float>(c, "vt").requires_grad_();
            const Tensor<T> out = masked_fill(x.detach(), input<bool>(c, "mask"), v);
            const Tensor<T> w = placement::place(linspace<T>(-1.5, 2.0, out.numel()).reshape(out.sizes()));
            Tensor<T>((out * w).sum()).backward();
            return k(v.grad());
        }
        return;
    }
    if (op == "masked_scatter_source_grad") {
        if constexpr (FloatingElement<T> && TENET_AUTOGRAD) {
            Tensor<T> src = input<T>(c, "source").requires_grad_();
            const Tensor<T> out = masked_scatter(x.detach(), input<bool>(c, "mask"), src);
            const Tensor<T> w = placement::place(linspace<T>(-1.5, 2.0, out.numel()).reshape(out.sizes()));
            Tensor<T>((out * w).sum()).backward();
            return k(src.grad());
        }
        return;
    }
    if (op == "masked_select")
        return k(x.masked_select(input<bool>(c, "mask")));
    if (op == "masked_scatter")
        return k(masked_scatter(x, input<bool>(c, "mask"), input<T>(c, "source")));
    if (op == "masked_scatter_") {
        Tensor<T> y = x.clone();
        masked_scatter_(y, input<bool>(c, "mask"), input<T>(c, "source"));
        return k(y);
    }
    if (op == "nonzero")
        return k(x.nonzero());
    if (op == "argwhere")
        return k(argwhere(x));
    if (op == "nonzero_tuple")
        return k(stack(nonzero(x, true), 0));
    if (op == "where")
        return k(stack(where(x), 0));
    if (op == "count_nonzero") {
        if (c.has("dim"))
            return k(x.count_nonzero(ints(c, "dim")));
        return k(count_nonzero(x));
    }
    // ---- views
    if (op == "movedim") {
        const IntArray s = ints(c, "src"), d = ints(c, "dst");
        if (c.flag("single"))
            return view(x.movedim(s[0], d[0]));
        return view(moveaxis(x, s, d));
    }
    if (op == "swapaxes")
        return view(x.swapaxes(c.integer("a", 0), c.integer("b", 0)));
    if (op == "swapdims")
        return view(swapdims(x, c.integer("a", 0), c.integer("b", 0)));
    if (op == "diagonal")
        return view(x.diagonal(c.integer("offset", 0), c.integer("dim1", 0), c.integer("dim2", 1)));
    if (op == "broadcast_to")
        return view(broadcast_to(x, ints(c, "shape")));
    if (op == "ravel")
        return view(x.ravel());
    if (op == "expand_as")
        return view(expand_as(x, shaped_like(c, "y")));
    if (op == "view_as")
        return view(view_as(x, shaped_like(c, "y")));
    if (op == "reshape_as") {
        const Tensor<T> r = reshape_as(x, shaped_like(c, "y"));
        if (c.parts.size() == 2)
            return view(r);
        return k(r);
    }
    if (op == "meshgrid") {
        const auto g = meshgrid(listed(c, x), c.arg("indexing"));
        if (g.size() == 1)
            return k(g[0], geometry(g[0]));
        if (g.size() == 2)
            return k(g[0], geometry(g[0]), g[1], geometry(g[1]));
        REQUIRE(g.size() == 3);
        return k(g[0], geometry(g[0]), g[1], geometry(g[1]), g[2], geometry(g[2]));
    }
    // ---- copies
    if (op == "diag_embed")
        return k(x.diag_embed(c.integer("offset", 0), c.integer("dim1", -2), c.integer("dim2", -1)));
    if (op == "roll")
        return k(x.roll(ints(c, "shifts"), ints(c, "dims")));
    if (op == "repeat")
        return k(x.repeat(ints(c, "sizes")));
    if (op == "tile")
        return k(tile(x, ints(c, "sizes")));
    if (op == "repeat_interleave")
        return k(x.repeat_interleave(c.integer("repeats", 0), optional_dim(c)));
    if (op == "repeat_interleave_t")
        return k(repeat_interleave(x, input<int64_t>(c, "reps"), optional_dim(c)));
    if (op == "repeat_interleave_r") {
        if constexpr (std::is_same_v<T, int64_t>)
            return k(repeat_interleave(x));
        FAIL("repeat_interleave(repeats) takes int64 repeats: " << c.line);
    }
    if (op == "rot90")
        return k(x.rot90(c.integer("k", 1), ints(c, "dims")));
    if (op == "tril_indices")
        return k(tril_indices(c.integer("row", 0), c.integer("col", 0), c.integer("offset", 0)));
    if (op == "triu_indices")
        return k(triu_indices(c.integer("row", 0), c.integer("col", 0), c.integer("offset", 0)));
    if (op == "cartesian_prod")
        return k(cartesian_prod(listed(c, x)));
    if (op == "block_diag")
        return k(block_diag(listed(c, x)));
    if (op == "combinations")
        return k(combinations(x, c.integer("r", 2), c.flag("with_replacement")));
    if (op == "broadcast_shapes") {
        std::vector<IntArray> shapes; // "a,b/c": shapes split at '/', each possibly empty
        const std::string& text = c.arg("shapes");
        for (size_t from = 0;;) {
            const size_t slash = text.find('/', from);
            const std::string one = text.substr(from, slash == std::string::npos ? std::string::npos : slash - from);
            shapes.push_back(one.empty() ? IntArray{} : ints(one));
            if (slash == std::string::npos)
                break;
            from = slash + 1;
        }
        const IntArray r = broadcast_shapes(shapes);
        return k(tensor(std::vector<int64_t>(r.begin(), r.end())));
    }
    FAIL("no tenet call for " << c.line);
}

// The ops whose grad_fn is PyTorch's node (the others are compositions: see the headers).
const std::set<std::string> kNamedNodes = {"masked_select", "masked_scatter", "diagonal",     "diag_embed", "movedim",
                                           "swapaxes",      "swapdims",       "broadcast_to", "expand_as"};

// Host only: the builders that take no tensor (their results are host tensors).
const std::set<std::string> kHostOnly = {"tril_indices", "triu_indices", "broadcast_shapes"};

void run_ops(const std::set<std::string>& ops) {
    golden::run_ops(cases(), ops, kNamedNodes, kHostOnly,
                    [](const Case& c, const auto& x, auto&& k) { call_op(c, x, k); });
}

} // namespace

TEST_CASE("golden masks: masked_fill, masked_select, masked_scatter", "[masks][golden]") {
    run_ops({"masked_fill", "masked_fill_", "masked_fill_value_grad", "masked_select", "masked_scatter",
             "masked_scatter_", "masked_scatter_source_grad"});
}

TEST_CASE("golden conditions: nonzero, argwhere, where, count_nonzero", "[masks][golden]") {
    run_ops({"nonzero", "argwhere", "nonzero_tuple", "where", "count_nonzero"});
}

TEST_CASE("golden views: movedim, swapaxes, diagonal, broadcast_to, ravel, *_as, meshgrid", "[masks][golden][views]") {
    run_ops({"movedim", "swapaxes", "swapdims", "diagonal", "broadcast_to", "ravel", "expand_as", "view_as",
             "reshape_as", "meshgrid"});
    // a braced list of tensors, as torch.meshgrid(a, b) reads (grids by definition: g0[i][j] = a[i])
    const auto g = meshgrid({arange<float>(0, 2), arange<float>(5, 8)}, "ij");
    CHECK(g[0].to_vector() == std::vector<float>{0, 0, 0, 1, 1, 1});
    CHECK(g[1].to_vector() == std::vector<float>{5, 6, 7, 5, 6, 7});
}

TEST_CASE("golden shape copies: roll, repeat, tile, repeat_interleave, rot90, diag_embed", "[masks][golden]") {
    run_ops({"roll", "repeat", "tile", "repeat_interleave", "repeat_interleave_t", "repeat_interleave_r", "rot90",
             "diag_embed"});
}

TEST_CASE("golden index and combination builders", "[masks][golden]") {
    run_ops({"tril_indices", "triu_indices", "cartesian_prod", "block_diag", "combinations", "broadcast_shapes"});
}

TEST_CASE("views share storage; masks refuse bad arguments by name", "[masks][views][errors]") {
    Tensor<float> x = arange<float>(0, 12).reshape({3, 4});
    Tensor<float> d = x.diagonal(1);
    d.fill_(-1); // a write through the view reaches x
    CHECK(x(0, 1) == -1);
    CHECK(x(2, 3) == -1);
    CHECK(x.movedim(0, 1).is_alias_of(x));
    CHECK(broadcast_to(x, {2, 3, 4}).is_alias_of(x));
    CHECK(x.ravel().is_alias_of(x));
    CHECK_THROWS_WITH(masked_fill(x, ones<bool>({3, 5}), 1), Catch::Contains("masked_fill"));
    CHECK_THROWS_WITH(x.diagonal(0, 1, -1), Catch::Contains("cannot be identical"));
    Tensor<float> y = x.clone();
    CHECK_THROWS_AS(masked_fill_(y, ones<bool>({2, 3, 4}), 0), shape_error);
    CHECK_THROWS_WITH(masked_scatter(x, ones<bool>({3, 4}), ones<float>({5})), Catch::Contains("masked_scatter"));
    CHECK_THROWS_AS(nonzero(x, false), value_error);
}

}}  // namespace TENET_TEST_FILE
