;; Lowering a function returning a string without a memory.
(component
  (import "f" (func $f (result string)))
  (core func (canon lower (func $f)))
)
