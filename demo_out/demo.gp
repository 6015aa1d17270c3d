set terminal pngcairo size 1000,900 noenhanced
set output 'demo_out/demo.png'
set datafile separator ','
set multiplot layout 3,1 title 'contactsim demo: ANYmal C drop (1 m, 1 m/s forward), dt 1 ms'
set ylabel 'base height [m]'
set key top right
plot 'demo_out/demo.csv' using 1:2 skip 1 with lines lw 2 title 'base z'
set ylabel 'energy [J]'
plot 'demo_out/demo.csv' using 1:3 skip 1 with lines lw 2 title 'mechanical energy', '' using 1:4 skip 1 with lines lw 2 title 'kinetic'
set xlabel 'time [s]'
set ylabel 'contacts'
set y2label 'penetration [mm]'
set y2tics
plot 'demo_out/demo.csv' using 1:5 skip 1 with steps lw 2 title 'contacts', '' using 1:6 skip 1 axes x1y2 with lines lw 1 title 'max penetration (mm)'
unset multiplot
