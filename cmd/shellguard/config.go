package main

import "github.com/spf13/cobra"

func newConfigCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "config", Hidden: true} }
