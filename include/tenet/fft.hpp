#pragma once
// tenet's fft module: the host FFT engine (batched strided 1-D transforms of interleaved complex
// buffers through kissfft and Bluestein's algorithm, or FFTW where TENET_HAVE_FFTW is defined;
// tenet/fft/engine.hpp), its plan cache, PyTorch's norm strings, and torch.fft's helpers fftfreq,
// rfftfreq, fftshift and ifftshift, and the transforms fft, ifft, rfft, irfft, hfft, ihfft and
// their 2-D and n-D forms (tenet/fft/transforms.hpp; no autograd yet) (namespace tenet::fft);
// torch.stft and torch.istft (tenet/fft/stft.hpp, namespace tenet); the window functions hann_window, hamming_window, blackman_window, bartlett_window and
// kaiser_window (namespace tenet).
// A device tensor is transformed on its device through cuFFT where the translation unit is
// compiled by nvcc (link CUDA::cufft; tenet/fft/device_engine.hpp), and on the host engine with
// copies in and out elsewhere, the Thrust OpenMP emulation included.
// Needs kissfft's header <kissfft/kissfft.hh> (Debian libkissfft-dev, BSD-3).

#include "tenet/ops.hpp"

#include "tenet/fft/norm.hpp"
#include "tenet/fft/plan_cache.hpp"
#include "tenet/fft/engine.hpp"
#include "tenet/fft/freq.hpp"
#include "tenet/fft/transforms.hpp"
#include "tenet/fft/stft.hpp"
#include "tenet/ops/windows.hpp"
