;; An alias of an export the instance does not have.
(component
  (import "i" (instance $i (export "f" (func))))
  (alias export $i "g" (func))
)
