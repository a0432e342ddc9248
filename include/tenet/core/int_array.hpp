#pragma once
// IntArray: the sizes and strides of a tensor. A small vector of int64 that keeps
// up to kInline values without touching the heap, because creating tiny tensors
// must stay cheap. Compares equal to any range of integers and prints as `[2, 3]`.

#include "tenet/config.hpp"
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <span>
#include <type_traits>
#include <vector>

namespace tenet::inline TENET_ABI {

class IntArray {
public:
    static constexpr size_t kInline = 6;
    using value_type = int64_t;
    using iterator = int64_t*;
    using const_iterator = const int64_t*;

    IntArray() noexcept {}  // user-provided: the inline buffer stays uninitialised
    explicit IntArray(size_t n, int64_t value = 0) { assign_fill(n, value); }
    IntArray(std::initializer_list<int64_t> values) { assign_copy(values.begin(), values.size()); }
    IntArray(std::span<const int64_t> values) { assign_copy(values.data(), values.size()); }
    IntArray(const std::vector<int64_t>& values) { assign_copy(values.data(), values.size()); }
    template <class It>
        requires(!std::is_convertible_v<It, const char*>)  // {"A", "C"} is a list of names, not a range
    IntArray(It first, It last) {
        reserve(static_cast<size_t>(std::distance(first, last)));
        for (; first != last; ++first) push_back(static_cast<int64_t>(*first));
    }
    IntArray(const IntArray& o) { assign_copy(o.data(), o.size_); }
    IntArray(IntArray&& o) noexcept { steal(o); }
    IntArray& operator=(const IntArray& o) {
        if (this != &o) {
            size_ = 0;
            assign_copy(o.data(), o.size_);
        }
        return *this;
    }
    IntArray& operator=(IntArray&& o) noexcept {
        if (this != &o) {
            release();
            steal(o);
        }
        return *this;
    }
    ~IntArray() { release(); }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    int64_t* data() { return heap_ ? heap_ : inline_; }
    const int64_t* data() const { return heap_ ? heap_ : inline_; }
    int64_t& operator[](size_t i) { return data()[i]; }
    int64_t operator[](size_t i) const { return data()[i]; }
    int64_t& back() { return data()[size_ - 1]; }
    int64_t back() const { return data()[size_ - 1]; }
    iterator begin() { return data(); }
    iterator end() { return data() + size_; }
    const_iterator begin() const { return data(); }
    const_iterator end() const { return data() + size_; }

    void reserve(size_t n) {
        if (n <= capacity()) return;
        auto* fresh = new int64_t[n];
        std::memcpy(fresh, data(), size_ * sizeof(int64_t));
        delete[] heap_;
        heap_ = fresh;
        heap_capacity_ = n;
    }
    void push_back(int64_t v) {
        if (size_ == capacity()) reserve(std::max<size_t>(2 * capacity(), kInline + 1));
        data()[size_++] = v;
    }
    void insert(size_t pos, int64_t v) {
        push_back(v);
        std::rotate(begin() + pos, end() - 1, end());
    }
    void erase(size_t pos) {
        std::copy(begin() + pos + 1, end(), begin() + pos);
        --size_;
    }
    void resize(size_t n, int64_t value = 0) {
        reserve(n);
        for (size_t i = size_; i < n; ++i) data()[i] = value;
        size_ = n;
    }

    std::vector<int64_t> vec() const { return {begin(), end()}; }
    operator std::span<const int64_t>() const { return {data(), size_}; }

    friend bool operator==(const IntArray& a, const IntArray& b) {
        if (a.size_ != b.size_) return false;
        const int64_t *x = a.data(), *y = b.data();  // a plain loop: shapes are short, memcmp's call is not
        for (size_t i = 0; i < a.size_; ++i)
            if (x[i] != y[i]) return false;
        return true;
    }
    template <class Range>
        requires requires(const Range& r) { std::begin(r); std::end(r); }
    friend bool operator==(const IntArray& a, const Range& b) {
        return std::equal(a.begin(), a.end(), std::begin(b), std::end(b),
                          [](int64_t x, auto y) { return x == static_cast<int64_t>(y); });
    }
    friend std::ostream& operator<<(std::ostream& os, const IntArray& a) {
        os << '[';
        for (size_t i = 0; i < a.size_; ++i) os << (i ? ", " : "") << a[i];
        return os << ']';
    }

private:
    size_t capacity() const { return heap_ ? heap_capacity_ : kInline; }
    void assign_copy(const int64_t* src, size_t n) {
        if (n <= kInline && !heap_) {  // the usual case, inlined: no call, no memcpy
            for (size_t i = 0; i < n; ++i) inline_[i] = src[i];
            size_ = n;
            return;
        }
        reserve(n);
        if (n > 0) std::memcpy(data(), src, n * sizeof(int64_t));  // src may be null when n == 0
        size_ = n;
    }
    void assign_fill(size_t n, int64_t v) {
        reserve(n);
        std::fill_n(data(), n, v);
        size_ = n;
    }
    // GCC 12 at -O2 and above sees through std::optional<IntArray> (a moved value_or, a
    // disengaged optional's destructor) and warns that the inline buffer or heap_ "may be used
    // uninitialized" here. Both are false: the buffer is copied whole by design (only [0, size_)
    // is ever read), and a disengaged optional destroys nothing.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
    void steal(IntArray& o) noexcept {
        size_ = o.size_;
        heap_ = o.heap_;
        heap_capacity_ = o.heap_capacity_;
        // The whole inline buffer, a fixed size: GCC turns a loop over size_ into a memcpy call,
        // which costs more than the few values.
        if (!heap_) std::memcpy(inline_, o.inline_, sizeof inline_);
        o.heap_ = nullptr;
        o.size_ = 0;
    }
    void release() noexcept {
        if (heap_) delete[] heap_;  // tested here: GCC calls operator delete[] even for null
        heap_ = nullptr;
    }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

    int64_t inline_[kInline];  // only [0, size_) is ever read; left uninitialised, as tiny tensors are hot
    int64_t* heap_ = nullptr;
    size_t heap_capacity_ = 0;
    size_t size_ = 0;
};

/// Product of the values (the number of elements of a shape); 1 for an empty shape.
inline int64_t product(const IntArray& sizes) {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
}

}  // namespace tenet
