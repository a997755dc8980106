;; A core exception that no handler catches reaches the component boundary:
;; the call must fail as a trap, never unwind into the host.
(component
  (core module $m
    (tag $t (param i32))
    (func (export "throw") (result i32)
      (throw $t (i32.const 7))))
  (core instance $i (instantiate $m))
  (func (export "throw") (result u32) (canon lift (core func $i "throw"))))
