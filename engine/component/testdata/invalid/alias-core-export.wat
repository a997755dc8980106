;; An alias of a core export the instance does not have.
(component
  (core module $m (func (export "f")))
  (core instance $i (instantiate $m))
  (alias core export $i "g" (core func))
)
