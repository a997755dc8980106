;; Lowering a function returning a list without realloc.
(component
  (import "f" (func $f (result (list u8))))
  (core module $m (memory (export "mem") 1))
  (core instance $i (instantiate $m))
  (alias core export $i "mem" (core memory $mem))
  (core func (canon lower (func $f) (memory $mem)))
)
