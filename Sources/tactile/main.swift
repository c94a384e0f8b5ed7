// `tactile`: for now, the routing demo. The Wayland server arrives with the next layers.
var demo = Demo()
demo.run()
