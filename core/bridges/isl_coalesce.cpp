// Coalescing that keeps the meaning. isl 0.25's coalescing is wrong on some relations with
// integer divisions: it merged
//   { [d1] -> [1 + rt0] : d1 <= 2 or 4 * floor(d1 / 4) < d1 - rt0 }   (with bounds)
// into `4 * floor(d1 / 4) <= d1 - rt0`, adding points (the regression test has the whole
// map). So every coalesced result is checked against its input with isl's equality test,
// which the bridge's differential tests check against brute force, and dropped when they
// differ.
#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>

#include "core/bridges/isl_bridge.h"

namespace idxmap::isl_bridge {

isl::map coalesce(const isl::map& map) {
  isl::map merged = own(isl_map_coalesce(map.copy()));
  return checked(isl_map_is_equal(merged.get(), map.get())) ? merged : map;
}

isl::set coalesce(const isl::set& set) {
  isl::set merged = own(isl_set_coalesce(set.copy()));
  return checked(isl_set_is_equal(merged.get(), set.get())) ? merged : set;
}

isl::pw_aff coalesce(const isl::pw_aff& function) {
  isl::pw_aff merged = own(isl_pw_aff_coalesce(function.copy()));
  return checked(isl_pw_aff_is_equal(merged.get(), function.get())) ? merged : function;
}

isl::pw_multi_aff coalesce(const isl::pw_multi_aff& function) {
  isl::pw_multi_aff merged = own(isl_pw_multi_aff_coalesce(function.copy()));
  return checked(isl_pw_multi_aff_is_equal(merged.get(), function.get())) ? merged : function;
}

}  // namespace idxmap::isl_bridge
