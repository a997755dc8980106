;; A core module importing (i32) -> () given a lowered () -> ().
(component
  (import "f" (func $f))
  (core func $g (canon lower (func $f)))
  (core instance $host (export "g" (func $g)))
  (core module $m (import "host" "g" (func (param i32))))
  (core instance (instantiate $m (with "host" (instance $host))))
)
