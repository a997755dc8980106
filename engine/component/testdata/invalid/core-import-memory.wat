;; A core memory import given a lowered function.
(component
  (import "f" (func $f))
  (core func $g (canon lower (func $f)))
  (core instance $host (export "m" (func $g)))
  (core module $m (import "host" "m" (memory 1)))
  (core instance (instantiate $m (with "host" (instance $host))))
)
