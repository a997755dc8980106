;; Re-exports host imports through the core functions `canon lower` makes of
;; them: lifted again, used as realloc and as post-return. Each call goes
;; through both sets of canonical options.
(component
  (import "count" (func $count (param "s" string) (result u32)))
  (import "alloc" (func $alloc (param "old-ptr" u32) (param "old-size" u32) (param "align" u32) (param "new-size" u32) (result u32)))
  (import "done" (func $done (param "result" u32)))
  (core module $mem
    (memory (export "memory") 1)
    (global $next (mut i32) (i32.const 16))
    (func (export "realloc") (param i32 i32 i32 i32) (result i32)
      (local $p i32)
      global.get $next
      local.set $p
      global.get $next
      local.get 3
      i32.add
      global.set $next
      local.get $p))
  (core instance $m (instantiate $mem))
  (alias core export $m "memory" (core memory $memory))
  (alias core export $m "realloc" (core func $realloc))
  (core func $count-core (canon lower (func $count) (memory $memory)))
  (core func $alloc-core (canon lower (func $alloc)))
  (core func $done-core (canon lower (func $done)))
  (type $count-t (func (param "s" string) (result u32)))
  (func $relifted (type $count-t)
    (canon lift (core func $count-core) (memory $memory) (realloc (core func $realloc))))
  (func $host-alloc (type $count-t)
    (canon lift (core func $count-core) (memory $memory) (realloc (core func $alloc-core)) (post-return (core func $done-core))))
  (export "count" (func $relifted))
  (export "count-host-alloc" (func $host-alloc))
)
