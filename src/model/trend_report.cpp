#include "model/trend_report.hpp"

namespace tracediff::model {

const char* series_kind_name(SeriesKind k) {
  switch (k) {
    case SeriesKind::figure: return "figure";
    case SeriesKind::family: return "family";
    case SeriesKind::row: return "row";
  }
  return "figure";
}

}  // namespace tracediff::model
