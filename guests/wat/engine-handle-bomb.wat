;; engine-handle-bomb: a guest creating resource handles in a loop
;; (handle-limit tests).
;;
;; Exports:  make: func(n: u32) -> u32 (creates n owned handles of its own
;;             resource type and keeps them all; returns the last handle).
(component
  (type $thing (resource (rep i32)))
  (core func $thing-new (canon resource.new $thing))
  (core module $m
    (import "rt" "thing-new" (func $new (param i32) (result i32)))
    (func (export "make") (param $n i32) (result i32)
      (local $i i32)
      (local $h i32)
      (block $done
        (loop $next
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $h (call $new (local.get $i)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $next)))
      (local.get $h)))
  (core instance $i (instantiate $m
    (with "rt" (instance (export "thing-new" (func $thing-new))))))
  (func (export "make") (param "n" u32) (result u32)
    (canon lift (core func $i "make"))))
