// A stable insertion sort for the few elements a frame usually gives (a point's barriers, a map's boxes,
// a placement's candidates): no setup and no temporary buffer, cheap on an almost sorted run.
#pragma once

#include <utility>

namespace baton {

// Sorts [first, last) by `less`, stable: an element out of place is held aside once and the larger ones
// before it move up one each. Quadratic: for a few elements only.
template <class T, class Less>
void insertion_sort(T* first, T* last, Less less) {
  for (T* p = first + 1; p < last; ++p) {
    if (!less(*p, *(p - 1))) continue;
    T moving = std::move(*p);
    T* q = p;
    do {
      *q = std::move(*(q - 1));
      --q;
    } while (q > first && less(moving, *(q - 1)));
    *q = std::move(moving);
  }
}

}  // namespace baton
