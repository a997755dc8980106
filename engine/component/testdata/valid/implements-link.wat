;; An instance imported under a plain label that implements an interface:
;; the linker supplies it with the host's definition of the interface.
(component
  (import "primary" (implements "test:kv/store") (instance $kv
    (export "get" (func (result u32)))))
  (alias export $kv "get" (func $get))
  (core func $get-lowered (canon lower (func $get)))
  (core module $m
    (import "kv" "get" (func $get (result i32)))
    (func (export "run") (result i32)
      (i32.add (call $get) (i32.const 1))))
  (core instance $i (instantiate $m
    (with "kv" (instance (export "get" (func $get-lowered))))))
  (func (export "run") (result u32) (canon lift (core func $i "run"))))
