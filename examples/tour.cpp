// The tenet tour: creation, properties, dtypes, views and storage, joining and splitting,
// then fused arithmetic, broadcasting, math, in-place operations and reductions.
// Each step mirrors a PyTorch snippet from the tutorials tenet follows; the output
// is what PyTorch prints for the same tensors.

#include <tenet/interop.hpp>    // Eigen maps, spans, DLPack
#include <tenet/quantized.hpp>  // quantized tensors
#include <tenet/sparse.hpp>     // sparse COO tensors
#include <tenet/tenet.hpp>
#if TENET_HAVE_LIBZIP
#include <tenet/files.hpp>  // .npy, .npz, PyTorch's .pt (needs libzip)
#endif
#if TENET_HAVE_HDF5
#include <tenet/hdf5.hpp>  // HDF5 datasets (needs HDF5's C library)
#endif
#if __has_include(<kissfft/kissfft.hh>)
#include <tenet/fft.hpp>  // torch.fft (needs kissfft's header)
#endif

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <numbers>

using namespace tenet;
using namespace tenet::indexing;

static void section(const char* title) { std::cout << "\n== " << title << " ==\n"; }
static void autograd_section();
static void interop_and_files_section();
static void layouts_section();

int main() {
    std::cout << "tenet " << version() << "\n";

    section("Creating tensors");
    auto x = tensor({{1, 2, 3}, {4, 5, 6}});  // integer literals -> int64, as in PyTorch
    std::cout << x << "\n";
    std::cout << zeros({2, 3}) << "\n" << ones({2, 2}, kInt32) << "\n" << full({2, 2}, 7.5) << "\n";
    std::cout << eye(3) << "\n";
    std::cout << arange(5) << "\n" << arange(1, 10, 2) << "\n" << arange(0.0, 1.0, 0.25) << "\n";
    std::cout << linspace(-1, 1, 5) << "\n" << logspace(0, 3, 4) << "\n";
    manual_seed(1729);
    std::cout << rand({2, 3}) << "\n";
    std::cout << randint(0, 10, {5}) << "\n";

    section("Properties");
    std::cout << "shape " << x.sizes() << ", dim " << x.dim() << ", numel " << x.numel() << ", dtype "
              << x.dtype() << ", device " << x.device() << "\n";
    std::cout << "size(-1) = " << x.size(-1) << ", stride " << x.stride() << "\n";
    std::cout << "scalar " << tensor(3.5) << " has dim " << tensor(3.5).dim() << " and item() "
              << tensor(3.5).item() << "\n";

    section("Data types");
    auto f = tensor({1.7, -2.5, 300.0});
    std::cout << f.to<double>() << "\n";
    std::cout << f.to(kInt32) << "   (float -> int truncates toward zero)\n";
    std::cout << f.to(kUInt8) << "   (out of range wraps as in PyTorch)\n";
    std::cout << f.to(kFloat16) << "\n" << f.to(kBFloat16) << "\n" << f.to(kBool) << "\n";

    section("Views share storage");
    auto points = tensor({{4.0, 1.0}, {5.0, 3.0}, {2.0, 1.0}});
    std::cout << points << "\n";
    std::cout << "points[1].storage_offset() = " << points[1].storage_offset() << ", points.stride() = "
              << points.stride() << "\n";
    auto points_t = points.t();
    std::cout << "points.t().stride() = " << points_t.stride() << ", contiguous: " << std::boolalpha
              << points_t.is_contiguous() << "\n";
    std::cout << "points.t().contiguous().stride() = " << points_t.contiguous().stride() << "\n";
    std::cout << "ones({3, 4, 5}).transpose(0, 2).stride() = " << ones({3, 4, 5}).transpose(0, 2).stride() << "\n";

    auto second_point = points[1];
    second_point[0] = 10.0;  // writes through the view into points
    std::cout << "after second_point[0] = 10:\n" << points << "\n";
    points.storage()[0] = 2.0;  // the storage is the same memory, seen 1-D
    std::cout << "after points.storage()[0] = 2:\n" << points << "\n";
    auto copy = points.clone();
    copy[0][0] = -1.0;
    std::cout << "a clone is independent: points(0, 0) is still " << points(0, 0) << "\n";

    section("Indexing and slicing");
    auto t = arange(12).view({3, 4});
    std::cout << t << "\n";
    std::cout << "t.index({Slice(), 2}) = " << t.index({Slice(), 2}) << "\n";
    std::cout << "t.index({Slice(None, None, 2), Slice(1, None)}) =\n"
              << t.index({Slice(None, None, 2), Slice(1, None)}) << "\n";
    std::cout << "t.index({-1, Ellipsis}) = " << t.index({-1, Ellipsis}) << "\n";
    std::cout << "t.index({None}).sizes() = " << t.index({None}).sizes() << "\n";
    t.index({Slice(), 2}) = 7;
    t[0][1] = 561;
    std::cout << "after t.index({Slice(), 2}) = 7 and t[0][1] = 561:\n" << t << "\n";
    // Index tensors and masks (PyTorch's advanced indexing): copies, and assignable.
    std::cout << "t.index({t > 8}) = " << t.index({t > 8}) << "\n";
    std::cout << "t.index({tensor({2L, 0L}), Slice(None, 2)}) =\n" << t.index({tensor({2L, 0L}), Slice(None, 2)}) << "\n";
    t.index({t > 100}) = 0;
    t.index_put_({tensor({0L, 0L}), tensor({3L, 3L})}, tensor({5L}), /*accumulate=*/true);  // duplicates add up
    std::cout << "after t.index({t > 100}) = 0 and index_put_ with accumulate:\n" << t << "\n";
    std::cout << gather(t, 1, tensor({{0L}, {1L}, {2L}})) << " " << t.masked_select(t.remainder(2) == 0) << "\n";

    section("Reshaping");
    std::cout << t.view({2, 6}) << "\n" << t.reshape({-1}) << "\n";
    std::cout << t.unsqueeze(0).sizes() << " " << t.unsqueeze(-1).sizes() << " " << t.unsqueeze(0).squeeze().sizes()
              << "\n";
    std::cout << t.permute({1, 0}).sizes() << " " << tensor({1.0, 2.0}).expand({3, 2}) << "\n";
    try {
        t.t().view({12});
    } catch (const shape_error& e) {
        std::cout << "view of a transposed tensor fails, as in PyTorch:\n  " << e.what() << "\n";
    }
    std::cout << "reshape copies instead: " << t.t().reshape({12}) << "\n";

    section("Joining and splitting");
    auto top = arange(6).view({2, 3}), bottom = full({1, 3}, 9);
    std::cout << "cat({top, bottom}) =\n" << cat({top, bottom}) << "\n";
    std::cout << "stack({top, top}, 2).sizes() = " << stack({top, top}, 2).sizes()
              << ", hstack: " << hstack({top, top}).sizes() << ", vstack: " << vstack({top, bottom}).sizes() << "\n";
    std::cout << "mixed types promote: " << cat(std::tuple{arange(2), tensor({0.5, 1.5})}) << "\n";
    std::cout << "expressions join as values: " << cat(std::tuple{arange(2) * 2, tensor({0.5, 1.5}) + 1}) << "\n";
    auto pieces = arange(10).split(4);  // views: no copy
    std::cout << "arange(10).split(4): " << pieces[0] << " " << pieces[1] << " " << pieces[2]
              << "; pieces[2].storage_offset() = " << pieces[2].storage_offset() << "\n";
    std::cout << "top.unbind(1)[2] = " << top.unbind(1)[2] << ", top.chunk(2, 1)[1] =\n" << top.chunk(2, 1)[1] << "\n";
    std::cout << "top.flip(1) =\n" << top.flip(1) << "   (a copy, as torch.flip)\n";

    section("Printing");
    std::cout << tensor({1e-5, 1.0, 1e5}) << "\n";
    std::cout << arange(2000.0).view({2, 1000}) << "\n";
    std::cout << empty({0, 3}) << "\n";

    section("Arithmetic: lazy, fused, one pass");
    auto ones_ = ones({2, 2});
    auto twos = ones_ * 2;                               // an expression...
    Tensor<float> threes = (ones_ + twos) * 1;           // ...evaluated when assigned, in one pass
    std::cout << threes << "\n" << (twos.pow(2) - 1).eval() << "\n";
    auto e = ones_ + twos;  // an expression keeps its operands alive: safe to keep with auto
    std::cout << "e evaluated twice: " << e.eval().sum() << " " << e.eval().sum() << "\n";
    std::cout << "int64 / int64 gives float32, as in PyTorch: " << (arange(4) / 2).eval() << "\n";
    // An expression is a value: the Tensor methods that are not element-wise (mm, t, reshape,
    // item, ...) evaluate it once; element-wise methods (clamp_min) stay lazy.
    std::cout << "e.mm(ones_).clamp_min(0).mm(twos).t() =\n" << e.mm(ones_).clamp_min(0).mm(twos).t()
              << "\n(e * 2).reshape({4}) = " << (e * 2).reshape({4}) << "\n";

    section("Broadcasting");
    manual_seed(7);
    auto r = rand({2, 4});
    std::cout << r << "\n" << (r * (ones({1, 4}) * 2)).eval() << "\n";
    auto a3 = ones({4, 3, 2});
    std::cout << "(4, 3, 2) * (3, 2) -> " << (a3 * rand({3, 2})).eval().sizes() << "\n";
    std::cout << "(4, 3, 2) * (3, 1) -> " << (a3 * rand({3, 1})).eval().sizes() << "\n";
    std::cout << "(4, 3, 2) * (1, 2) -> " << (a3 * rand({1, 2})).eval().sizes() << "\n";
    for (const auto& bad : {IntArray{4, 3}, IntArray{2, 3}, IntArray{0}}) {
        try {
            auto product = a3 * rand(bad);
            (void)product;
        } catch (const shape_error& err) {
            std::cout << "fails: " << err.what() << "\n";
        }
    }

    section("Math");
    auto angles = tensor({0.0, 3.14159265358979 / 4, 3.14159265358979 / 2});
    std::cout << sin(angles).eval() << "\n" << asin(sin(angles)).eval() << "\n";
    auto m = rand({2, 4}) * 2 - 1;
    Tensor<float> mm = m;
    std::cout << abs(mm).eval() << "\n" << mm.clamp(-0.5, 0.5).eval() << "\n";
    std::cout << sigmoid(mm * 3 + 1).eval() << "\n";

    section("In-place operations");
    auto acc = zeros({2, 2});
    acc += ones({2, 2}) * 3;  // one fused pass into acc, no temporary
    acc.mul_(2).sqrt_();
    std::cout << acc << "\n";
    auto shifted = arange(5.0);
    shifted.index({Slice(1, None)}) = shifted.index({Slice(None, 4)}) * 10;  // aliasing handled
    std::cout << shifted << "\n";
    auto square_ = arange(9.0).view({3, 3});
    square_.assign(square_.t() + square_.flip(0));  // reads overlap the write: one temporary, PyTorch's result
    std::cout << square_ << "\n";

    section("Reductions");
    auto data = arange(12.0).view({3, 4});
    std::cout << data.sum() << " " << data.mean() << " " << data.sum(1) << "\n";
    std::cout << sum(data * data + 1) << "   (consumes the expression: no temporary)\n";
    std::cout << data.max(1) << "\n";
    std::cout << (data - data.mean(1, true)).eval() << "   (the mean is computed once)\n";
    std::cout << data.norm() << " " << (data > 5).eval().any() << " " << data.argmax() << "\n";

    section("Statistics, sorting, scans, counting and softmax");
    auto scores = tensor({{2.0, 0.5, 1.0, 3.5}, {1.0, 1.0, (double)NAN, 0.0}});
    std::cout << scores.var(1) << " " << scores.std(1, /*correction=*/0) << " " << nanmean(scores, 1) << "\n";
    auto [sorted, order] = sort(scores, 1, /*descending=*/true);  // stable; NaN counts as the largest
    std::cout << sorted << "\n" << order << "\n";
    std::cout << topk(scores, 2).indices << " " << median(scores.index({0}), 0).values << " "
              << scores.cumsum(1) << "\n";
    std::cout << softmax(scores.index({0}), 0) << " " << logsumexp(scores.index({0}), 0) << "\n";
    auto ages = tensor({31.0, 22.5, 47.0, 22.5, 64.0, 38.0});
    std::cout << ages.quantile(tensor({0.25, 0.5, 0.75})) << " " << bucketize(ages, tensor({30.0, 50.0})) << " "
              << histc(ages, 4, 20, 70) << "\n";
    auto [values, inverse, counts] = unique(tensor({3L, 1L, 3L, 2L, 1L, 3L}), true, true, true);
    std::cout << values << " " << inverse << " " << counts << " " << bincount(inverse) << "\n";
    std::cout << leaky_relu(scores.index({0}) - 2, 0.1).eval() << " " << clamp(ages, ages.mean() - 10, ages.mean() + 10).eval()
              << "   (hardtanh, elu, selu, celu too)\n";
    auto logits = tensor({{2.0, 0.5, -1.0}, {0.1, 0.2, 3.0}});
    std::cout << nn::functional::cross_entropy(logits, tensor({0L, 2L})) << "   (log_softmax + nll_loss)\n";

    section("Linear algebra");
    auto lhs = tensor({{1, 2, 3}, {4, 5, 6}}), rhs = tensor({{1, 2}, {3, 4}, {5, 6}});
    std::cout << matmul(lhs, rhs) << "   (integer matmul is exact)\n";
    std::cout << addmm(ones({2, 2}), ones({2, 3}), ones({3, 2}), 2, 3) << "   (beta * input + alpha * a @ b)\n";
    StaticTensor<float, Shape<2, 3>> s23 = rand({2, 3});
    StaticTensor<float, Shape<3, 4>> s34 = rand({3, 4});
    auto s24 = matmul(s23, s34);  // StaticTensor<float, Shape<2, 4>>; Shape<4, 3> would not compile
    std::cout << s24.sizes() << " " << linalg::multi_dot({rand({2, 3}), rand({3, 4}), rand({4, 5})}).sizes() << "\n";
    auto sym = tensor({{2.0, 1.0}, {1.0, 2.0}});
    auto [eigenvalues, eigenvectors] = linalg::eigh(sym);
    std::cout << eigenvalues << "\n" << linalg::svd(rand({3, 2}), false).S << " " << linalg::det(sym) << "\n";
    auto img = rand({2, 3, 4, 4});
    auto gray = einsum("...chw,c->...hw", {img, tensor({0.2126f, 0.7152f, 0.0722f})});
    std::cout << "grayscale " << img.sizes() << " -> " << gray.sizes() << ", "
              << einsum<"ij,jk->ik">(s23, s34).sizes() << " checked at compile time\n";
    try {
        tenet::mm(ones({2, 3}), ones({4, 5}));
    } catch (const shape_error& err) {
        std::cout << "fails: " << err.what() << "\n";
    }

#if __has_include(<kissfft/kissfft.hh>)
    section("Spectra (torch.fft)");
    manual_seed(0);
    auto time = arange(128.0) / 128;  // one second of 128 samples: a 12 Hz sine in noise
    Tensor<double> noisy = sin(2 * std::numbers::pi * 12 * time) + 0.5 * randn({128}, kFloat64);
    Tensor<double> magnitude = abs(fft::rfft(noisy));  // complex128 spectrum -> its magnitudes
    const int64_t peak = magnitude.argmax().item();
    std::cout << "rfft of " << noisy.sizes() << " -> " << magnitude.sizes() << ", peak " << magnitude[peak].item()
              << " at " << fft::rfftfreq(128, 1.0 / 128, kFloat64)[peak].item() << " Hz\n";
    // Its short-time spectra: 32-point Hann frames every 8 samples -> [17 frequencies, 17 frames].
    auto frames = stft(noisy, 32, 8, std::nullopt, hann_window(32, true, kFloat64), true, "reflect", false, std::nullopt,
                       true);
    std::cout << "stft -> " << frames.sizes() << "\n";
#endif

    section("Autograd");
    autograd_section();

    section("Interop and files");
    interop_and_files_section();

    section("Other kinds of tensors: named, sparse, quantized, meta");
    layouts_section();

    section("Devices");
    // This tour is compiled by the host compiler: CUDA tensors need a translation unit built by
    // nvcc (examples/devices.cpp shows them). The idiom picks whatever is there.
    const Device where = cuda_is_available() ? Device("cuda") : Device("cpu");
    std::cout << "cuda_is_available() = " << std::boolalpha << cuda_is_available() << ", so the device is " << where
              << "\n";
    std::cout << rand({2, 4}, where) << " on " << rand({2, 4}, where).device() << "\n";
    if (!cuda_is_available()) {
        try {
            rand({3, 4}, "cuda");
        } catch (const device_error& err) {
            std::cout << "fails: " << err.what() << "\n";
        }
    }
}

static void autograd_section() {
    auto x = tensor({3.0f}).requires_grad_();
    Tensor<float> y = x * x;  // y = x^2
    y.backward();
    std::cout << "x = " << x << ", y = " << y << ", dy/dx = " << x.grad() << "\n";
    auto a = tensor(2.0f).requires_grad_(), b = tensor(5.0f).requires_grad_();
    Tensor<float> c = a * b;
    Tensor<float> d = c + a;
    Tensor<float> e = d.pow(2);
    e.backward();
    std::cout << "e = " << e << ": de/da = " << a.grad() << ", de/db = " << b.grad() << "\n";
    auto w = randn({4}).requires_grad_();
    auto inputs = randn({4}), targets = rand({4});
    // One node: the mean of a fused expression. Its forward pass also computes dloss/dw
    // (sharing sigmoid), so backward only scales it by 1/n.
    auto loss = ((sigmoid(inputs * w) - targets).pow(2)).mean();
    std::cout << "the recorded graph (Graphviz):\n" << autograd::to_dot(loss);
    loss.backward();
    std::cout << "loss = " << loss << "\ndloss/dw = " << w.grad() << "\n";
    auto m = randn({3, 3}, kFloat64).requires_grad_();
    auto logdet = linalg::slogdet(matmul(m, m.t()) + eye(3, kFloat64)).logabsdet;
    logdet.backward();
    std::cout << "d logdet(m m^T + I) / dm = " << m.grad() << "\n";
    auto rows = m.unbind(0);  // three views, outputs of ONE UnbindBackward0 node
    Tensor<double> cross_term = rows[0] * rows[2];
    m.reset_grad();
    cross_term.sum().backward();  // row 1 got no gradient: its slot of m.grad() is zero
    std::cout << rows[0].grad_fn()->name() << ": d sum(m[0] * m[2]) / dm = " << m.grad() << "\n";
    {
        NoGradGuard no_grad;
        Tensor<float> frozen = w * 2;
        std::cout << "under NoGradGuard: requires_grad = " << frozen.requires_grad() << "\n";
    }
    std::cout << "detach: " << w.detach().requires_grad() << ", same storage: " << (w.detach().data_ptr() == w.data_ptr())
              << "\n";
}

static void interop_and_files_section() {
    // Print options, as torch.set_printoptions (process-wide); the guard restores them.
    {
        PrintOptionsGuard two_digits({.precision = 2});
        std::cout << tensor({1.12345, 2.5}) << "\n";
    }
    // Eigen sees the tensor's memory with its strides (as t.numpy() in the seeds): writes through
    // either side are seen by the other. from_eigen is torch.from_numpy's counterpart.
    Tensor<float> a = arange(6).to<float>().reshape({2, 3});
    auto m = to_eigen(a.t());  // a 3x2 map of the transposed view, no copy
    m(2, 1) = 50.0f;
    std::cout << a << "\n";
    Eigen::MatrixXd e(2, 2);
    e << 1, 2, 3, 4;  // column-major: the tensor gets strides [1, 2]
    Tensor<double> shared = from_eigen(e);
    e(0, 1) = -2;
    std::cout << shared << " strides " << shared.strides() << "\n";
#if TENET_HAVE_DLPACK
    // DLPack: the zero-copy exchange every framework speaks (torch.utils.dlpack).
    Tensor<float> back = from_dlpack<float>(to_dlpack(a));
    std::cout << "from_dlpack(to_dlpack(a)) shares a's memory: " << std::boolalpha
              << (back.data_ptr() == a.data_ptr()) << "\n";
#endif
    const auto dir = std::filesystem::temp_directory_path();
#if TENET_HAVE_LIBZIP
    // NumPy's files, and PyTorch's own: torch.load reads what tenet::save wrote, and back.
    const std::string npy = (dir / "tenet_tour.npy").string(), pt = (dir / "tenet_tour.pt").string();
    save_npy(npy, a);  // np.load(npy) gives the same array
    std::cout << load_npy<float>(npy) << "\n";
    save(std::vector<std::pair<std::string, TensorBase>>{{"weight", a}, {"bias", zeros({3})}}, pt);
    for (const auto& [name, t] : load_state_dict(pt)) std::cout << name << ": " << t.sizes() << "\n";
    std::remove(npy.c_str());
    std::remove(pt.c_str());
#endif
#if TENET_HAVE_HDF5
    // HDF5: a chunked, compressed dataset; a hyperslab reads only what it selects.
    const std::string h5 = (dir / "tenet_tour.h5").string();
    std::remove(h5.c_str());
    save_h5(h5, "train/x", arange(600).to<float>().view({20, 30}), H5Options{.chunks = {10, 10}, .compression = 4});
    std::cout << load_h5(h5, "train/x", {Slice(2, 8, 2), Slice(None, 5)}).as<float>() << "\n";
    std::remove(h5.c_str());
#endif
}

static void layouts_section() {
    // Named dims (the seed's grayscale image): names say which dim is which, and ops check them.
    const Tensor<float> img = rand({3, 5, 5});  // channels, rows, columns
    const Tensor<float> weights_named = tensor({0.2126f, 0.7152f, 0.0722f}, TensorOptions().names({"channels"}));
    const Tensor<float> img_named = img.refine_names({"...", "channels", "rows", "columns"});
    std::cout << img_named.sizes() << " " << img_named.names() << "\n";
    const Tensor<float> weights_aligned = weights_named.align_as(img_named);
    std::cout << weights_aligned.sizes() << " " << weights_aligned.names() << "\n";
    const Tensor<float> gray_named = (img_named * weights_aligned).sum("channels");
    std::cout << gray_named.sizes() << " " << gray_named.names() << "\n";
    const Tensor<float> gray_plain = gray_named.rename(std::nullopt);
    std::cout << gray_plain.sizes() << " " << gray_plain.names() << "\n";

    // Sparse COO: only the nonzero entries are stored (the seed's 3 x 3 example).
    const auto indices = tensor<int64_t>({{0, 1, 1}, {2, 0, 2}});  // rows, then columns
    const auto sparse = sparse_coo_tensor(indices, tensor<int64_t>({3, 4, 5}), {3, 3});
    std::cout << sparse << "\n";
    const Tensor<int64_t> dense = sparse.to_dense();  // sparse -> dense
    std::cout << dense << "\n";
    std::cout << "to_sparse() again: nnz=" << to_sparse(dense)._nnz() << "\n";  // dense -> sparse
    const auto w = tensor<float>({{0.5f, -1.0f, 2.0f}, {1.5f, 0.25f, 0.0f}, {-2.0f, 1.0f, 0.5f}});
    std::cout << "sparse @ dense:\n" << mm(sparse_coo_tensor(indices, tensor<float>({3, 4, 5}), {3, 3}), w) << "\n";

    // Quantized: 8-bit integers with a scale and a zero point, for smaller, faster inference.
    const auto x = tensor<float>({{0.31f, -1.27f, 0.05f}, {2.5f, -0.4f, 1.0f}});
    const QuantizedTensor xq = quantize_per_tensor(x, /*scale=*/0.1, /*zero_point=*/0, kQInt8);
    std::cout << xq << "\n";
    std::cout << "int_repr: " << xq.int_repr().as<int8_t>() << "\n";
    std::cout << "dequantize: " << dequantize(xq) << "\n";

    // Meta: shapes, dtypes and strides without data, to check a model's shapes for free.
    const auto weight = randn({4096, 1024}, kMeta).requires_grad_();
    const auto batch = randn({64, 1024}, kMeta);
    const auto loss = nn::functional::cross_entropy(matmul(batch, weight.t()), zeros({64}, kInt64, kMeta));
    loss.backward();
    std::cout << "loss: " << loss << "\nweight.grad(): " << weight.grad() << "\n";
}
