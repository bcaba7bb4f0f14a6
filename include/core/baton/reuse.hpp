#pragma once

#include <utility>

namespace baton {

// Makes `x` what a default-constructed T is, except that the listed members (containers) keep their
// storage: each is emptied (clear()), not freed. A phase that writes its result into the caller's object
// (the *_into functions: a frame compiled again into last frame's result) starts from this, so its code
// reads exactly as if the object were new (every container empty, every other member at its default),
// and a container it fills takes no heap block once the frames before it had room. Members not listed
// start fresh too, only without their storage.
template <class T, class... M>
void reuse_storage(T& x, M T::*... members) {
  T fresh;
  ((fresh.*members = std::move(x.*members), (fresh.*members).clear()), ...);
  x = std::move(fresh);
}

}  // namespace baton
