// --by-shape (issue #18 item 5): the readers' canonical text of args["Input Dims"] and
// args["Input type"] (untrusted: anything malformed is no shape, never an error, and
// both readers agree byte for byte). The FLOP formulas are in analysis/names/flops_test.cpp.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "reading/fast_reader.hpp"
#include "reading/trace_reader.hpp"
#include "support/reader_diff.hpp"
#include "support/test_support.hpp"

using namespace tracediff;

namespace {

reading::ReadOptions by_shape(bool on = true) {
  reading::ReadOptions o;
  o.by_shape = on;
  return o;
}

// One cpu_op whose args hold `args` (JSON members, without braces).
std::string op_with(const std::string& args, const std::string& cat = "cpu_op") {
  return R"({"traceEvents": [{"ph": "X", "cat": ")" + cat +
         R"(", "name": "aten::mm", "pid": 1, "tid": 2, "ts": 10, "dur": 5, "args": {)" + args + "}}]}";
}

// The shape text both readers keep for the trace's first event ("-" for none),
// checked to be the same from both and at every window size of the fast path.
std::string shape_of(const std::string& json, bool on = true) {
  reading::ByteSource tolerant_source{std::string_view(json)};
  const auto tolerant = reading::read_trace(tolerant_source, "mem.json", by_shape(on));
  BOOST_REQUIRE(!tolerant.file.events.empty());
  for (const std::size_t window : {std::size_t{1}, std::size_t{7}, std::size_t{64}, reading::k_fast_window}) {
    reading::ByteSource source{std::string_view(json)};
    const auto fast = reading::read_trace_fast(source, "mem.json", by_shape(on), window);
    if (!fast) continue;  // the tolerant reader's file
    BOOST_TEST(test::first_difference(*fast, tolerant) == "", json << " (window " << window << ")");
  }
  const auto& e = tolerant.file.events.front();
  return e.shape == ~0u ? std::string("-") : std::string(tolerant.file.pool.get(e.shape));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shapes)

BOOST_AUTO_TEST_CASE(the_event_stays_48_bytes) { BOOST_TEST(sizeof(model::Event) == 48u); }

BOOST_AUTO_TEST_CASE(dims_and_types_become_one_canonical_text) {
  BOOST_TEST(shape_of(op_with(R"("Input Dims": [[64, 1024], [1024, 4096]], "Input type": ["float", "c10::BFloat16"])")) ==
             "[[64,1024],[1024,4096]] (float,c10::BFloat16)");
  // Types before dims, scalars and None inputs, no types at all, a TensorList.
  BOOST_TEST(shape_of(op_with(R"("Input type": ["int", "", "Scalar"], "Input Dims": [[1], [], []])")) ==
             "[[1],[],[]] (int,,Scalar)");
  BOOST_TEST(shape_of(op_with(R"("Input Dims": [[], [64]])")) == "[[],[64]]");
  BOOST_TEST(shape_of(op_with(R"("Input Dims": [[[2, 3], [4]], []], "Input type": ["TensorList", ""])")) ==
             "[[[2,3],[4]],[]] (TensorList,)");
  BOOST_TEST(shape_of(op_with(R"("Input Dims": [], "Input type": [])")) == "[]");
  // Escapes decode before the check, as in names.
  BOOST_TEST(shape_of(op_with(R"("Input Dims": [[2]], "Input type": ["fl\u006fat"])")) == "[[2]] (float)");
  // The fast path takes such files (it does not hand shapes to the tolerant reader).
  const auto json = op_with(R"("Input Dims": [[64, 1024], [[2], []]], "Input type": ["c10::Half", "TensorList"])");
  reading::ByteSource source{std::string_view(json)};
  BOOST_TEST(reading::read_trace_fast(source, "mem.json", by_shape(), reading::k_fast_window).has_value());
  // The last of a key given twice, as for every field.
  BOOST_TEST(shape_of(op_with(R"("Input Dims": [[1]], "Input Dims": [[2]])")) == "[[2]]");
}

BOOST_AUTO_TEST_CASE(only_with_by_shape_and_only_for_operators) {
  const auto args = std::string(R"("Input Dims": [[64, 1024]], "Input type": ["float"])");
  BOOST_TEST(shape_of(op_with(args), false) == "-");
  BOOST_TEST(shape_of(op_with(args, "user_annotation")) == "-");
  BOOST_TEST(shape_of(op_with(args, "kernel")) == "-");
  BOOST_TEST(shape_of(op_with(R"("External id": 3)")) == "-");
}

BOOST_AUTO_TEST_CASE(malformed_dims_are_no_shape_and_malformed_types_no_types) {
  for (const std::string dims : {R"("[[1]]")", "[[1.5]]", "[[-1]]", "[[1e3]]", R"({"a": [1]})", "[[1], null]",
                                 "[[1], true]", "5", "null", R"([["1"]])", "[[[[[[[[[[1]]]]]]]]]]",
                                 "[[123456789012345678901]]"}) {
    BOOST_TEST(shape_of(op_with(R"("Input Dims": )" + dims + R"(, "Input type": ["float"])")) == "-", dims);
  }
  // Past 1,024 characters: no shape (a TensorList of hundreds of tensors).
  std::string many = "[";
  for (int i = 0; i < 300; ++i) many += (i ? ", [" : "[") + std::to_string(1000 + i) + "]";
  BOOST_TEST(shape_of(op_with(R"("Input Dims": )" + many + "]")) == "-");
  for (const std::string types : {R"(["fl\"oat"])", R"(["a,b"])", R"X(["x)"])X", R"([["float"]])", "[1]",
                                  R"("float")", R"(["\u0007"])", "null"}) {
    BOOST_TEST(shape_of(op_with(R"("Input Dims": [[2, 3]], "Input type": )" + types)) == "[[2,3]]", types);
  }
}

BOOST_AUTO_TEST_CASE(the_readers_agree_on_every_one_byte_mutation) {
  const std::string base = op_with(
      R"("Input Dims": [[64, 1024], [[2], []], []], "Input type": ["float", "c10::Half", ""], "correlation": 7)");
  const std::string replacements = "[],\"0-.e{} n\\";
  for (std::size_t i = 0; i < base.size(); ++i) {
    for (const char c : replacements) {
      if (c == base[i]) continue;
      const std::string v = base.substr(0, i) + c + base.substr(i + 1);
      reading::ByteSource ts{std::string_view(v)};
      const auto tolerant = reading::read_trace(ts, "mem.json", by_shape());
      reading::ByteSource fs{std::string_view(v)};
      const auto fast = reading::read_trace_fast(fs, "mem.json", by_shape(), 1 + i % 13);
      if (fast) BOOST_TEST(test::first_difference(*fast, tolerant) == "", "byte " << i << " '" << c << "'");
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
