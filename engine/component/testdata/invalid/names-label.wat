;; An import name that is not kebab-case.
(component
  (import "foo_bar" (func))
)
