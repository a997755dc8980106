;; A nested component instantiates a core module of its enclosing component
;; through an outer alias.
(component
  (core module $m
    (func (export "answer") (result i32) i32.const 42))
  (component $inner
    (alias outer 1 $m (core module $m))
    (core instance $i (instantiate $m))
    (alias core export $i "answer" (core func $answer-core))
    (func $answer (result u32) (canon lift (core func $answer-core)))
    (export "answer" (func $answer)))
  (instance $x (instantiate $inner))
  (alias export $x "answer" (func $answer))
  (export "answer" (func $answer))
)
