;; An alias of a function export as an instance.
(component
  (import "i" (instance $i (export "f" (func))))
  (alias export $i "f" (instance))
)
