#pragma once

#include <utility>

namespace baton {

// A member that reuse_storage() hands back as it is, elements and all (not emptied): for a container the
// phase writes again in full, so that emptying it would only have resize() value-initialize (or make
// objects again) what the phase then overwrites. The phase must cut it to its own size.
template <class T, class C>
struct Kept {
  C T::*member;
};
template <class T, class C>
Kept<T, C> keep(C T::*member) {
  return {member};
}

namespace reuse_detail {
template <class T, class C>
void carry(T& fresh, T& x, C T::*member) {
  fresh.*member = std::move(x.*member);
  (fresh.*member).clear();
}
template <class T, class C>
void carry(T& fresh, T& x, Kept<T, C> kept) {
  fresh.*kept.member = std::move(x.*kept.member);
}
}  // namespace reuse_detail

// Makes `x` what a default-constructed T is, except that the listed members (containers) keep their
// storage: each is emptied (clear()), not freed; a member listed as keep(&T::m) keeps its elements too.
// A phase that writes its result into the caller's object (the *_into functions: a frame compiled again
// into last frame's result) starts from this, so its code reads exactly as if the object were new (every
// container empty, every other member at its default), and a container it fills takes no heap block once
// the frames before it had room. Members not listed start fresh too, only without their storage.
template <class T, class... M>
void reuse_storage(T& x, M... members) {
  T fresh;
  (reuse_detail::carry(fresh, x, members), ...);
  x = std::move(fresh);
}

}  // namespace baton
