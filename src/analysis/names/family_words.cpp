// The family the words of a kernel's name suggest (kernel_families.hpp, words_family): the
// last resort for a name that no rule knows and no launcher explains, as in a GPU-only
// trace. Rules match texts anywhere in a name, so they hold only texts long or rare
// enough to be safe; words are whole (split at punctuation, camelCase and digits), so
// short common ones ("add", "mm", "cast") can speak here without matching "addmm" or
// "broadcast".
#include <string>
#include <string_view>
#include <unordered_map>

#include "analysis/names/kernel_families.hpp"

namespace tracediff::analysis {

namespace {

using F = Family;

struct Word {
  const char* word;  // lower case
  Family family;
};

// In precedence order, as the rules: what the kernel is part of before how it computes
// (attention and MoE before GEMM, convolution before GEMM, GEMM before copies and
// arithmetic). The family of the earliest word found wins, wherever it is in the name.
constexpr Word k_words[] = {
    {"attn", F::attention}, {"attention", F::attention}, {"mha", F::attention}, {"mqa", F::attention},
    {"gqa", F::attention}, {"sdpa", F::attention}, {"fmha", F::attention}, {"flashattn", F::attention},
    {"prefill", F::attention}, {"causal", F::attention},
    {"moe", F::moe}, {"expert", F::moe}, {"experts", F::moe}, {"router", F::moe}, {"routing", F::moe},
    {"gating", F::moe},
    {"sample", F::sampling}, {"sampling", F::sampling}, {"sampler", F::sampling}, {"multinomial", F::sampling},
    {"penalty", F::sampling}, {"penalties", F::sampling},
    {"conv", F::convolution}, {"convolution", F::convolution}, {"deconv", F::convolution},
    {"fprop", F::convolution}, {"dgrad", F::convolution}, {"wgrad", F::convolution}, {"winograd", F::convolution},
    {"im2col", F::convolution}, {"col2im", F::convolution}, {"depthwise", F::convolution},
    {"norm", F::normalization}, {"layernorm", F::normalization}, {"rmsnorm", F::normalization},
    {"groupnorm", F::normalization}, {"batchnorm", F::normalization}, {"rms", F::normalization},
    {"lrn", F::normalization}, {"welford", F::normalization}, {"normalize", F::normalization},
    {"normalization", F::normalization},
    {"softmax", F::softmax}, {"logsoftmax", F::softmax}, {"entropy", F::softmax}, {"xent", F::softmax},
    {"nll", F::softmax}, {"kldiv", F::softmax}, {"jsd", F::softmax},
    {"gemm", F::gemm}, {"gemv", F::gemm}, {"mm", F::gemm}, {"bmm", F::gemm}, {"matmul", F::gemm},
    {"mma", F::gemm}, {"wgmma", F::gemm}, {"hmma", F::gemm}, {"imma", F::gemm}, {"mfma", F::gemm},
    {"wmma", F::gemm}, {"umma", F::gemm}, {"xdl", F::gemm}, {"xdlops", F::gemm}, {"tensorop", F::gemm},
    {"linear", F::gemm}, {"lora", F::gemm}, {"sgmv", F::gemm}, {"bgmv", F::gemm}, {"einsum", F::gemm},
    {"contraction", F::gemm}, {"blas", F::gemm}, {"cublas", F::gemm}, {"hipblas", F::gemm},
    {"hipblaslt", F::gemm}, {"rocblas", F::gemm}, {"tensile", F::gemm},
    {"sort", F::sort}, {"argsort", F::sort}, {"radix", F::sort}, {"scan", F::sort}, {"cumsum", F::sort},
    {"cumprod", F::sort}, {"topk", F::sort}, {"unique", F::sort}, {"nonzero", F::sort}, {"compact", F::sort},
    {"searchsorted", F::sort}, {"bucketize", F::sort},
    {"embedding", F::embedding}, {"embeddings", F::embedding}, {"embed", F::embedding},
    {"gather", F::embedding}, {"scatter", F::embedding}, {"index", F::embedding}, {"indices", F::embedding},
    {"indexing", F::embedding}, {"lookup", F::embedding},
    {"reduce", F::reduction}, {"reduction", F::reduction}, {"sum", F::reduction}, {"mean", F::reduction},
    {"amax", F::reduction}, {"amin", F::reduction}, {"argmax", F::reduction}, {"argmin", F::reduction},
    {"pool", F::reduction}, {"pooling", F::reduction}, {"maxpool", F::reduction}, {"avgpool", F::reduction},
    {"logsumexp", F::reduction}, {"histogram", F::reduction},
    {"copy", F::copy}, {"cast", F::copy}, {"convert", F::copy}, {"transpose", F::copy}, {"permute", F::copy},
    {"concat", F::copy}, {"cat", F::copy}, {"contiguous", F::copy}, {"clone", F::copy}, {"pad", F::copy},
    {"padded", F::copy}, {"unpad", F::copy}, {"pack", F::copy}, {"unpack", F::copy}, {"layout", F::copy},
    {"nchw", F::copy}, {"nhwc", F::copy}, {"reshape", F::copy}, {"split", F::copy}, {"stack", F::copy},
    {"repeat", F::copy}, {"flip", F::copy}, {"roll", F::copy}, {"dense", F::copy},
    {"elementwise", F::elementwise}, {"element", F::elementwise}, {"pointwise", F::elementwise},
    {"unary", F::elementwise}, {"binary", F::elementwise}, {"ternary", F::elementwise},
    {"scalar", F::elementwise}, {"add", F::elementwise}, {"sub", F::elementwise}, {"mul", F::elementwise},
    {"div", F::elementwise}, {"fma", F::elementwise}, {"axpy", F::elementwise}, {"axpby", F::elementwise},
    {"scale", F::elementwise}, {"bias", F::elementwise}, {"fill", F::elementwise}, {"zero", F::elementwise},
    {"zeros", F::elementwise}, {"ones", F::elementwise}, {"relu", F::elementwise}, {"gelu", F::elementwise},
    {"silu", F::elementwise}, {"swish", F::elementwise}, {"swiglu", F::elementwise}, {"geglu", F::elementwise},
    {"sigmoid", F::elementwise}, {"tanh", F::elementwise}, {"act", F::elementwise},
    {"activation", F::elementwise}, {"exp", F::elementwise}, {"log", F::elementwise}, {"sqrt", F::elementwise},
    {"rsqrt", F::elementwise}, {"pow", F::elementwise}, {"abs", F::elementwise}, {"neg", F::elementwise},
    {"sin", F::elementwise}, {"cos", F::elementwise}, {"erf", F::elementwise}, {"sign", F::elementwise},
    {"reciprocal", F::elementwise}, {"square", F::elementwise}, {"round", F::elementwise},
    {"clamp", F::elementwise}, {"clip", F::elementwise}, {"where", F::elementwise}, {"mask", F::elementwise},
    {"masked", F::elementwise}, {"maximum", F::elementwise}, {"minimum", F::elementwise},
    {"compare", F::elementwise}, {"logical", F::elementwise}, {"bitwise", F::elementwise},
    {"isnan", F::elementwise}, {"isinf", F::elementwise}, {"finite", F::elementwise}, {"nan", F::elementwise},
    {"lerp", F::elementwise}, {"rope", F::elementwise}, {"mrope", F::elementwise}, {"rotary", F::elementwise},
    {"quant", F::elementwise}, {"quantize", F::elementwise}, {"dequant", F::elementwise},
    {"dequantize", F::elementwise}, {"random", F::elementwise}, {"rand", F::elementwise},
    {"randn", F::elementwise}, {"philox", F::elementwise}, {"dropout", F::elementwise},
    {"bernoulli", F::elementwise}, {"uniform", F::elementwise}, {"normal", F::elementwise},
    {"range", F::elementwise}, {"arange", F::elementwise}, {"iota", F::elementwise},
    {"linspace", F::elementwise}, {"adam", F::elementwise}, {"adamw", F::elementwise}, {"sgd", F::elementwise},
    {"lamb", F::elementwise}, {"optimizer", F::elementwise},
};

// Forward or backward of a FlashAttention or SageAttention kernel ("sage_fwd",
// "flash_decoding"): attention, though neither word alone says so.
constexpr std::string_view k_passes[] = {"fwd", "bwd", "forward", "backward", "decode", "decoding"};
constexpr std::string_view k_attention_libraries[] = {"sage", "flash"};

const std::unordered_map<std::string_view, std::size_t>& word_rank() {
  static const auto ranks = [] {
    std::unordered_map<std::string_view, std::size_t> m;
    for (std::size_t i = 0; i < std::size(k_words); ++i) m.try_emplace(k_words[i].word, i);
    return m;
  }();
  return ranks;
}

// The kernel's own name: up to its parameter list ("(long, float const*)"), whose types
// say nothing of what it does; template arguments (functors) stay.
std::string_view head(std::string_view name) {
  constexpr std::string_view k_anonymous = "(anonymous namespace)";
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<') ++depth;
    else if (c == '>' && depth > 0) --depth;
    else if (c == '(' && depth == 0) {
      if (name.substr(i).starts_with(k_anonymous)) i += k_anonymous.size() - 1;
      else return name.substr(0, i);
    }
  }
  return name;
}

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Calls `each` with every word of `name`, lower case: split at anything but letters
// and digits, between letters and digits, before an upper-case letter after a lower-case
// one ("batchNorm"), and before the last capital of a run that a lower-case letter
// follows ("MIOpenConv": "mi", "open", "conv").
template <class Each>
void for_each_word(std::string_view name, Each each) {
  std::string word;
  const auto flush = [&] {
    if (!word.empty()) each(std::string_view(word));
    word.clear();
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (!is_lower(c) && !is_upper(c) && !is_digit(c)) {
      flush();
      continue;
    }
    if (i > 0 && !word.empty()) {
      const char p = name[i - 1];
      const bool next_lower = i + 1 < name.size() && is_lower(name[i + 1]);
      if (is_digit(c) != is_digit(p) || (is_upper(c) && is_lower(p)) || (is_upper(c) && is_upper(p) && next_lower))
        flush();
    }
    word.push_back(is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c);
  }
  flush();
}

}  // namespace

Family words_family(std::string_view name) {
  const auto& ranks = word_rank();
  std::size_t best = std::size(k_words);
  bool pass = false, library = false, up = false;
  for_each_word(head(name), [&](std::string_view w) {
    // "UpSample", "DownSampling": resampling, elementwise like upsample
    if (up && w.starts_with("sampl")) w = "scale";
    up = w == "up" || w == "down";
    if (const auto it = ranks.find(w); it != ranks.end() && it->second < best) best = it->second;
    for (const auto p : k_passes) pass |= w == p;
    for (const auto l : k_attention_libraries) library |= w == l;
  });
  if (pass && library) return Family::attention;
  return best < std::size(k_words) ? k_words[best].family : Family::other;
}

}  // namespace tracediff::analysis
