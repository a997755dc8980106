;; Exercises most component-level constructs: imports of instance types with
;; resources, aliases of every kind, canon lift/lower/resource.*, core
;; instances both ways, nested components, instantiation, exports.
(component $kitchen
  (import "host:test/iface@0.1.0" (instance $host
    (export "res" (type $res (sub resource)))
    (type $rec (record (field "a" u32) (field "b" string)))
    (export "rec" (type $rec2 (eq $rec)))
    (export "[constructor]res" (func (result (own $res))))
    (export "[method]res.get" (func (param "self" (borrow $res)) (result u32)))
    (export "log" (func (param "msg" string)))
    (export "tick" (func))
  ))
  (alias export $host "log" (func $log))
  (alias export $host "tick" (func $tick))
  (alias export $host "res" (type $res))

  (core module $mem
    (memory (export "memory") 1)
    (func (export "realloc") (param i32 i32 i32 i32) (result i32) unreachable)
  )
  (core instance $memi (instantiate $mem))
  (alias core export $memi "memory" (core memory $memory))
  (alias core export $memi "realloc" (core func $realloc))

  (core func $log_lowered (canon lower (func $log) (memory $memory) (realloc $realloc) string-encoding=utf16))
  (core func $tick_lowered (canon lower (func $tick)))
  (core func $res_drop (canon resource.drop $res))

  (core module $dtor (func (export "dtor") (param i32)))
  (core instance $dtori (instantiate $dtor))
  (alias core export $dtori "dtor" (core func $dtorf))
  (type $mine (resource (rep i32) (dtor (core func $dtorf))))
  (type $plain (resource (rep i32)))
  (core func $new (canon resource.new $mine))
  (core func $rep (canon resource.rep $mine))

  (core module $main
    (import "host" "log" (func (param i32 i32)))
    (import "host" "drop" (func (param i32)))
    (import "host" "tick" (func))
    (func (export "run") (param i32) (result i32) local.get 0)
    (func (export "post") (param i32))
    (func (export "greet") (param i32 i32) (result i32) unreachable)
  )
  (core instance $hosti
    (export "log" (func $log_lowered))
    (export "drop" (func $res_drop))
    (export "tick" (func $tick_lowered))
    (export "mem" (memory $memory))
  )
  (core instance $maini (instantiate $main (with "host" (instance $hosti))))

  (type $runt (func (param "x" s32) (result s32)))
  (func $run (type $runt) (canon lift (core func $maini "run") (post-return (core func $maini "post"))))
  (func $greet (param "name" string) (result string)
    (canon lift (core func $maini "greet") (memory $memory) (realloc (core func $realloc)) string-encoding=latin1+utf16))

  (type $v (variant (case "a") (case "b" u8) (case "c" $runt2)))
  (type $runt2 (list u8))
  (type (enum "x" "y" "z"))
  (type (flags "p" "q"))
  (type (option string))
  (type (result u32 (error string)))
  (type (result))
  (type (result (error u8)))
  (type (tuple u8 s16 f32 f64 char bool s64 u64 u16 s8 u32 s32))
  (type (list (list u8)))
  (type (own $mine))
  (type (borrow $mine))
  (type (func (param "a" u8) (param "b" (list string))))

  (core type (module
    (type $ft (func (param i32)))
    (import "a" "b" (func (type $ft)))
    (import "a" "t" (table 1 2 funcref))
    (import "a" "g" (global i64))
    (export "m" (memory 1 5))
    (export "g" (global (mut i32)))
    (export "f" (func (param i64 f32 f64 v128) (result i32 externref)))
  ))
  (core type $cft (func (param i64 f32 f64) (result i32)))

  (type $ct (component
    (import "x" (func))
    (type $u u32)
    (export "y" (func (param "p" $u)))
    (export "i" (instance
      (export "r" (type (sub resource)))
    ))
    (core type (module))
    (export "mod" (core module (type 0)))
  ))

  (component $inner
    (import "in" (func $in))
    (alias outer $kitchen $runt (type $outer_t))
    (core module $nested_mod)
    (export "out" (func $in))
    (export "m" (core module $nested_mod))
  )
  (instance $ii (instantiate $inner (with "in" (func $tick))))
  (alias export $ii "out" (func $out))
  (alias export $ii "m" (core module $m2))
  (alias outer $kitchen $mem (core module $mem_again))
  (alias outer $kitchen $inner (component $inner_again))
  (alias outer $kitchen $cft (core type $cft_again))

  (instance $exp
    (export "run" (func $run))
    (export "greet" (func $greet))
  )
  (export "run" (func $run))
  (export "greet" (func $greet) (func (param "name" string) (result string)))
  (export "inst" (instance $exp))
  (export "mine" (type $mine))
  (export "mod" (core module $mem))
  (export "comp" (component $inner))
)
