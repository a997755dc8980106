;; An alias of a function export as a memory.
(component
  (core module $m (func (export "f")))
  (core instance $i (instantiate $m))
  (alias core export $i "f" (core memory))
)
