;; A nested component imports core modules, is given them as instantiation
;; arguments, and instantiates one with an instance of the other.
(component
  (core module $lib
    (func (export "base") (result i32) i32.const 40))
  (core module $user
    (import "env" "base" (func $base (result i32)))
    (func (export "answer") (result i32)
      call $base
      i32.const 2
      i32.add))
  (component $inner
    (import "lib" (core module $lib
      (export "base" (func (result i32)))))
    (import "user" (core module $user
      (import "env" "base" (func (result i32)))
      (export "answer" (func (result i32)))))
    (core instance $l (instantiate $lib))
    (core instance $u (instantiate $user (with "env" (instance $l))))
    (alias core export $u "answer" (core func $answer-core))
    (func $answer (result u32) (canon lift (core func $answer-core)))
    (export "answer" (func $answer)))
  (instance $x (instantiate $inner (with "lib" (core module $lib)) (with "user" (core module $user))))
  (alias export $x "answer" (func $answer))
  (export "answer" (func $answer))
)
