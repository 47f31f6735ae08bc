#include <isl/constraint.h>
#include <isl/map.h>
#include <isl/val.h>

#include "core/bridges/isl_bridge.h"
#include "core/checked.h"

namespace idxmap::isl_bridge {

std::optional<std::vector<std::vector<int64_t>>> plainPoints(const isl::map& map) {
  if (checked(isl_map_dim(map.get(), isl_dim_param)) != 0) return std::nullopt;
  struct Reader {
    std::vector<std::vector<int64_t>> points;
    bool plain = true;
  } reader;
  auto visit = [](isl_basic_map* raw, void* user) -> isl_stat {
    auto* r = static_cast<Reader*>(user);
    isl::basic_map piece = isl::manage(raw);
    isl_basic_map* b = piece.get();
    int in = isl_basic_map_dim(b, isl_dim_in), out = isl_basic_map_dim(b, isl_dim_out);
    // Exactly one equality per dimension and nothing else: the piece is that point.
    if (isl_basic_map_dim(b, isl_dim_div) != 0 || isl_basic_map_n_constraint(b) != in + out ||
        isl_basic_map_plain_is_empty(b) != isl_bool_false) {
      r->plain = false;
      return isl_stat_error;  // stops the walk
    }
    std::vector<int64_t> point;
    for (isl_dim_type type : {isl_dim_in, isl_dim_out}) {
      int count = type == isl_dim_in ? in : out;
      for (int i = 0; i < count; ++i) {
        isl::val value = isl::manage(isl_basic_map_plain_get_val_if_fixed(b, type, i));
        if (value.is_null() || !isl_val_is_int(value.get())) {
          r->plain = false;
          return isl_stat_error;
        }
        try {
          point.push_back(toInt64(value));
        } catch (const OverflowError&) {  // not through isl's C frames: read it the slow way
          r->plain = false;
          return isl_stat_error;
        }
      }
    }
    r->points.push_back(std::move(point));
    return isl_stat_ok;
  };
  isl_stat status = isl_map_foreach_basic_map(map.get(), visit, &reader);
  if (!reader.plain) {
    isl_ctx_reset_error(islContext().get());
    return std::nullopt;
  }
  if (status != isl_stat_ok) throwLastIslError();
  return std::move(reader.points);
}

}  // namespace idxmap::isl_bridge
