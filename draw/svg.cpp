#include "draw/svg.h"

#include <algorithm>
#include <map>
#include <set>

namespace idxmap::draw {
namespace {

constexpr int kCell = 20, kGap = 24, kMaxWidth = 1200;
constexpr int64_t kWholeDim = 10;       // a dim up to this long is drawn whole
constexpr size_t kMaxSlices = 12;       // 2-D slices drawn per tensor
constexpr size_t kMaxMarkedPerDim = 8;  // indices a dim shows for the drawn points
const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
                                "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#d62728"};

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string indexText(const std::string& name, const Index& index) {
  std::string out = name + "[";
  for (size_t i = 0; i < index.size(); ++i) out += (i ? ", " : "") + std::to_string(index[i]);
  return out + "]";
}

// The indices a dim of `size` shows: all of a short dim; else the first and last two and the
// first kMaxMarkedPerDim of `marked` (in the order given: what must be seen first).
std::vector<int64_t> shownIndices(int64_t size, const std::vector<int64_t>& marked) {
  std::set<int64_t> shown;
  if (size <= kWholeDim) {
    for (int64_t i = 0; i < size; ++i) shown.insert(i);
  } else {
    for (int64_t i : {int64_t{0}, int64_t{1}, size - 2, size - 1}) shown.insert(i);
    size_t added = 0;
    for (int64_t i : marked)
      if (i >= 0 && i < size && added < kMaxMarkedPerDim && shown.insert(i).second) ++added;
  }
  return {shown.begin(), shown.end()};
}

// A tensor's cells as drawn: for each element, its colours, shade and border.
struct CellStyle {
  std::vector<size_t> colours;  // the drawn points reaching it (kPalette, modulo); in bands
  bool shaded = false;          // only points whose runtime values are unknown reach it
  bool collision = false;
};
constexpr size_t kMaxBands = 4;  // colours a cell shows side by side

int digits(int64_t value) { return static_cast<int>(std::to_string(value).size()); }

class TensorDrawing {
 public:
  // `first`: the elements to make visible before the other styled ones (each drawn point's
  // first element), so that a summarized tensor still shows every point somewhere.
  TensorDrawing(const TensorGrid& grid, const std::map<Index, CellStyle>& styles,
                const std::vector<Index>& first)
      : grid_(grid), styles_(styles) {
    const size_t rank = grid.shape.size();
    std::vector<Index> ordered = first;
    for (const auto& [element, style] : styles) ordered.push_back(element);
    std::vector<std::vector<int64_t>> marked(rank);
    for (const Index& element : ordered)
      for (size_t d = 0; d < rank && d < element.size(); ++d) marked[d].push_back(element[d]);
    for (size_t d = 0; d < rank; ++d) shown_.push_back(shownIndices(grid.shape[d], marked[d]));
    chooseSlices(ordered);
    // Column indices of more than two digits stand upright (they would run into each other
    // across 20-pixel cells); row indices get the width their digits need.
    int columnDigits = 1, rowDigits = 1;
    if (rank >= 1)
      for (int64_t i : shown_[rank - 1]) columnDigits = std::max(columnDigits, digits(i));
    if (rank >= 2)
      for (int64_t i : shown_[rank - 2]) rowDigits = std::max(rowDigits, digits(i));
    uprightColumns_ = columnDigits > 2;
    header_ = uprightColumns_ ? kCell + 7 * columnDigits + 6 : 2 * kCell;
    margin_ = std::max(kCell, 7 * rowDigits + 6);
  }

  // Appends the tensor's slices at (x, y) and returns the height used; `right` grows to the
  // rightmost x drawn.
  int draw(int x, int y, std::string& out, int& right) const {
    const size_t rank = grid_.shape.size();
    const std::vector<Index>& slices = slices_;
    const std::vector<int64_t> rows = rank >= 2 ? shown_[rank - 2] : std::vector<int64_t>{0};
    const std::vector<int64_t> cols = rank >= 1 ? shown_[rank - 1] : std::vector<int64_t>{0};
    // A slice is as wide as its grid or its label (about 8 pixels a character), whichever is
    // wider, so that labels of neighbouring slices never overlap.
    const int labelWidth = 8 * static_cast<int>(sliceLabel(slices.front()).size());
    const int width = std::max(margin_ + kCell * columnsWithGaps(cols), labelWidth),
              height = header_ + kCell * (columnsWithGaps(rows) + 1);
    int atX = x, atY = y, used = 0;
    for (const Index& slice : slices) {
      if (atX > x && atX + width > kMaxWidth) {
        atX = x;
        atY += height + kGap;
      }
      drawSlice(slice, rows, cols, atX, atY, out);
      used = atY + height - y;
      right = std::max(right, atX + width);
      atX += width + kGap;
    }
    if (hiddenSlices_ > 0) {
      const std::string note = "… and " + std::to_string(hiddenSlices_) + " more " + grid_.name +
                               " slices (nothing drawn there)";
      out += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y + used + 14) +
             "\" class=\"legend\">" + escape(note) + "</text>\n";
      right = std::max(right, x + 7 * static_cast<int>(note.size()));
      used += 18;
    }
    return used;
  }

 private:
  // The 2-D slices drawn: every one when at most kMaxSlices (in order), else those holding
  // the elements of `ordered` (up to kMaxSlices, in order; the first slice when none).
  void chooseSlices(const std::vector<Index>& ordered) {
    const size_t rank = grid_.shape.size();
    const size_t lead = rank > 2 ? rank - 2 : 0;
    int64_t total = 1;  // saturating
    for (size_t d = 0; d < lead; ++d)
      total = grid_.shape[d] == 0                  ? 0
              : total > INT64_MAX / grid_.shape[d] ? INT64_MAX
                                                   : total * grid_.shape[d];
    if (total <= static_cast<int64_t>(kMaxSlices)) {
      slices_ = {{}};
      for (size_t d = 0; d < lead; ++d) {
        std::vector<Index> next;
        for (const Index& prefix : slices_)
          for (int64_t i = 0; i < grid_.shape[d]; ++i) {
            next.push_back(prefix);
            next.back().push_back(i);
          }
        slices_ = next;
      }
      if (slices_.empty()) slices_ = {Index(lead, 0)};  // an empty tensor: one empty slice
      return;
    }
    std::set<Index> wanted;
    for (const Index& element : ordered)
      if (wanted.size() < kMaxSlices && element.size() == rank)
        wanted.insert(Index(element.begin(), element.begin() + static_cast<long>(lead)));
    if (wanted.empty()) wanted.insert(Index(lead, 0));
    slices_.assign(wanted.begin(), wanted.end());
    hiddenSlices_ = total == INT64_MAX ? total : total - static_cast<int64_t>(slices_.size());
  }

  // `operand[1, 2, :, :]`; the tensor's name for rank 2 and below.
  std::string sliceLabel(const Index& lead) const {
    if (grid_.shape.size() <= 2) return grid_.name;
    std::string label = grid_.name + "[";
    for (int64_t i : lead) label += std::to_string(i) + ", ";
    return label + ":, :]";
  }

  static int columnsWithGaps(const std::vector<int64_t>& shown) {
    int count = 0;
    for (size_t i = 0; i < shown.size(); ++i) count += (i && shown[i] != shown[i - 1] + 1) ? 2 : 1;
    return count;
  }

  void drawSlice(const Index& lead, const std::vector<int64_t>& rows,
                 const std::vector<int64_t>& cols, int x, int y, std::string& out) const {
    const size_t rank = grid_.shape.size();
    const std::string label = sliceLabel(lead);
    out += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y + 12) +
           "\" class=\"label\">" + escape(label) + "</text>\n";
    const int top = y + header_, left = x + margin_;
    auto place = [](const std::vector<int64_t>& shown, size_t i) {
      int at = 0;
      for (size_t j = 1; j <= i; ++j) at += shown[j] != shown[j - 1] + 1 ? 2 : 1;
      return at;
    };
    for (size_t c = 0; c < cols.size(); ++c) {  // column indices, and ellipses between
      int cx = left + kCell * place(cols, c);
      if (uprightColumns_) {
        const std::string at = std::to_string(cx + kCell / 2 + 4) + " " + std::to_string(top - 4);
        out += "<text transform=\"rotate(-90 " + at + ")\" x=\"" +
               std::to_string(cx + kCell / 2 + 4) + "\" y=\"" + std::to_string(top - 4) +
               "\" class=\"upright\">" + std::to_string(cols[c]) + "</text>\n";
      } else {
        out += "<text x=\"" + std::to_string(cx + kCell / 2) + "\" y=\"" + std::to_string(top - 4) +
               "\" class=\"index\">" + std::to_string(cols[c]) + "</text>\n";
      }
      if (c && cols[c] != cols[c - 1] + 1)
        out += "<text x=\"" + std::to_string(cx - kCell / 2) + "\" y=\"" +
               std::to_string(top + kCell * 2 / 3) + "\" class=\"index\">…</text>\n";
    }
    for (size_t r = 0; r < rows.size(); ++r) {
      int ry = top + kCell * place(rows, r);
      if (rank >= 2)
        out += "<text x=\"" + std::to_string(left - 4) + "\" y=\"" +
               std::to_string(ry + kCell * 2 / 3) + "\" class=\"row\">" + std::to_string(rows[r]) +
               "</text>\n";
      if (r && rows[r] != rows[r - 1] + 1)
        out += "<text x=\"" + std::to_string(left + kCell / 2) + "\" y=\"" +
               std::to_string(ry - kCell / 3) + "\" class=\"index\">⋮</text>\n";
      for (size_t c = 0; c < cols.size(); ++c) {
        Index element = lead;
        if (rank >= 2) element.push_back(rows[r]);
        if (rank >= 1) element.push_back(cols[c]);
        cell(element, left + kCell * place(cols, c), ry, out);
      }
    }
  }

  // A cell: white, or one colour, or up to kMaxBands colours in vertical bands (elements two
  // drawn points reach); its border, drawn last, red for a collision.
  void cell(const Index& element, int x, int y, std::string& out) const {
    auto found = styles_.find(element);
    const CellStyle none;
    const CellStyle& style = found == styles_.end() ? none : found->second;
    const std::string opacity = style.shaded ? " fill-opacity=\"0.3\"" : "";
    const size_t bands = std::min(style.colours.size(), kMaxBands);
    std::string fill = bands == 1 ? kPalette[style.colours[0] % std::size(kPalette)] : "#ffffff";
    if (bands > 1) {
      for (size_t b = 0; b < bands; ++b) {
        const int from = x + kCell * static_cast<int>(b) / static_cast<int>(bands),
                  to = x + kCell * static_cast<int>(b + 1) / static_cast<int>(bands);
        out += "<rect x=\"" + std::to_string(from) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
               std::to_string(to - from) + "\" height=\"" + std::to_string(kCell) + "\" fill=\"" +
               kPalette[style.colours[b] % std::size(kPalette)] + "\"" + opacity +
               " class=\"band\"/>\n";
      }
      fill = "none";
    }
    out += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
           std::to_string(kCell) + "\" height=\"" + std::to_string(kCell) + "\" fill=\"" + fill +
           "\"" + (bands == 1 ? opacity : "") + (style.collision ? " class=\"collision\"" : "") +
           "><title>" + escape(indexText(grid_.name, element)) + "</title></rect>\n";
  }

  const TensorGrid& grid_;
  const std::map<Index, CellStyle>& styles_;
  std::vector<std::vector<int64_t>> shown_;
  std::vector<Index> slices_;  // leading index tuples of the 2-D slices drawn, in order
  int64_t hiddenSlices_ = 0;   // slices not drawn
  bool uprightColumns_ = false;
  int header_ = 0, margin_ = 0;  // pixels above and left of a slice's cells
};

std::string legendLine(const Picture& picture, const DrawnPoint& p) {
  std::string out = indexText(picture.source.name, p.point) + " → ";
  if (p.skipped) return out + "nothing (an index is out of range: the update is skipped)";
  if (p.undefined) return out + "nothing (an index is out of range: undefined for this op)";
  if (p.targets.empty()) return out + "nothing (outside the map's domain)";
  if (p.targets.size() == 1 && !p.runtimeUnknown)
    out += indexText(picture.target.name, p.targets[0]);
  else
    out += std::string(p.runtimeUnknown ? "any of " : "") + std::to_string(p.targets.size()) +
           (p.truncated ? "+" : "") + " elements of " + picture.target.name +
           (p.runtimeUnknown ? " (index values known only at run time)" : "");
  if (p.clamped) out += " (start index clamped)";
  return out;
}

}  // namespace

std::string renderSvg(const Picture& picture) {
  std::map<Index, CellStyle> sourceStyles, targetStyles;
  std::vector<Index> sourceFirst, targetFirst;  // each point, and the first element it reaches
  std::set<Index> collisions(picture.collisions.begin(), picture.collisions.end());
  for (size_t i = 0; i < picture.points.size(); ++i) {
    const DrawnPoint& p = picture.points[i];
    sourceStyles[p.point].colours.push_back(i);
    sourceFirst.push_back(p.point);
    if (!p.targets.empty()) targetFirst.push_back(p.targets.front());
    for (const Index& t : p.targets) {
      CellStyle& style = targetStyles[t];
      style.shaded = (style.colours.empty() || style.shaded) && p.runtimeUnknown;
      style.colours.push_back(i);
      style.collision = collisions.count(t) > 0;
    }
  }
  std::string body;
  int y = 10, right = 400;
  y += TensorDrawing(picture.source, sourceStyles, sourceFirst).draw(10, y, body, right) + kGap;
  y += TensorDrawing(picture.target, targetStyles, targetFirst).draw(10, y, body, right) + kGap;
  for (size_t i = 0; i < picture.points.size(); ++i) {
    right =
        std::max(right, 28 + 7 * static_cast<int>(legendLine(picture, picture.points[i]).size()));
    body += "<rect x=\"10\" y=\"" + std::to_string(y) + "\" width=\"12\" height=\"12\" fill=\"" +
            kPalette[i % std::size(kPalette)] + "\"/>\n<text x=\"28\" y=\"" +
            std::to_string(y + 11) + "\" class=\"legend\">" +
            escape(legendLine(picture, picture.points[i])) + "</text>\n";
    y += 18;
  }
  if (!picture.collisions.empty()) {
    const std::string line =
        "red border, their colours side by side: an element two drawn points reach";
    body += "<text x=\"10\" y=\"" + std::to_string(y + 11) + "\" class=\"legend\">" + line +
            "</text>\n";
    right = std::max(right, 10 + 7 * static_cast<int>(line.size()));
    y += 18;
  }
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(right + 10) +
         "\" height=\"" + std::to_string(y + 10) +
         "\" font-family=\"sans-serif\">\n<style>rect { stroke: #555; stroke-width: 1 } "
         ".band { stroke: none } .collision { stroke: #d00; stroke-width: 3 } .label { font-size: "
         "13px; font-weight: "
         "bold } .index { font-size: 10px; text-anchor: middle } .row { font-size: 10px; "
         "text-anchor: end } .upright { font-size: 10px } .legend { font-size: 12px }</style>\n" +
         body + "</svg>\n";
}

}  // namespace idxmap::draw
